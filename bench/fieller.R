# bench/fieller.R: an oracle for the summary's fallback, written from the
# textbook, not from interloper's code: the paired Fieller interval of the
# ratio of means over units (Kalibera and Jones, ISMM 2013: intervals over
# the highest level of the experiment), the units the values of one label
# (the layouts), each unit's value the mean of its runs, t with units - 1
# degrees of freedom.  Base R only (no packages).
#
#   sh bench/coverage.sh -n 3 -s fb-specific-16x4 -K DIR
#   Rscript bench/fieller.R DIR/fb-specific-16x4-r0.jsonl [LABEL]
#   build/libexec/interloper-report --json --compare system=A --setup layout \
#       DIR/fb-specific-16x4-r0.jsonl      (its comparisons[0].ratio and ci)
#
# prints "ratio lo hi" of system B over system A, LABEL (layout) the unit.
args <- commandArgs(TRUE)
unit <- if (length(args) > 1) args[2] else "layout"
l <- readLines(args[1])
field <- function(re) sub(re, "\\1", regmatches(l, regexpr(re, l)))
d <- data.frame(system = field('"system":"([^"]*)"'),
                unit = field(paste0('"', unit, '":"([^"]*)"')),
                x = as.numeric(field('"wall_ns":([-0-9.eE+]+)')))
m <- aggregate(x ~ system + unit, d, mean)
a <- m[m$system == "A", ]
b <- m[m$system == "B", ]
u <- intersect(a$unit, b$unit)
a <- a$x[match(u, a$unit)]
b <- b$x[match(u, b$unit)]
n <- length(u)
ma <- mean(a)
mb <- mean(b)
vaa <- var(a) / n
vbb <- var(b) / n
vab <- cov(a, b) / n
t <- qt(0.975, n - 1)
# (mb - r ma)^2 = t^2 (vbb - 2 r vab + r^2 vaa), solved for r
A <- ma^2 - t^2 * vaa
B <- -2 * (ma * mb - t^2 * vab)
C <- mb^2 - t^2 * vbb
disc <- B^2 - 4 * A * C
if (A <= 0 || disc < 0) {
    cat(sprintf("%.10g unbounded\n", mb / ma))
} else {
    cat(sprintf("%.10g %.10g %.10g\n", mb / ma, (-B - sqrt(disc)) / (2 * A),
                (-B + sqrt(disc)) / (2 * A)))
}
