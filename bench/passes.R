# bench/passes.R: an oracle for the report's passes of a harness (the
# suite's ratio per pass, its interval over the passes and the F test of
# a pass-wide shift), written from the rule in interloper-report(1) and
# the textbook, not from interloper's code.  Base R only (no packages).
#
# Input: a TSV of the records in the order they were read, one a line:
#   system <TAB> benchmark (the group without the compared label) <TAB> value
# e.g. of a harness's results file (the groups of --by bench,args):
#   jq -r 'select(.exit.how != "exec" and .exit.status == 0) |
#          [.labels.system, (.labels.bench + " " + (.argv[1:] | join(" "))),
#           .events["task-clock"].value] | @tsv' suite.jsonl > suite.tsv
#   Rscript bench/passes.R suite.tsv O2
# beside (the same records, as JSON lines)
#   interloper report --json --metric task-clock --by bench,args \
#       --compare system=O2 FILE       (its suites[].passes)
#
# The rule: a stretch is a maximal run of consecutive records of one
# system; it is a pass when it holds at least two of that system's
# benchmarks and at least half of them; the records have passes when the
# passes hold at least 90% of every system's records.  Each benchmark's
# estimate in a pass is the mean of its runs there.  Over the benchmarks
# measured in every pass of both systems: per pass, the mean log
# estimate of each system; the ratio of pass j is exp of the difference
# of the j-th passes' means; the interval is Welch's t on the two
# systems' per-pass means (Kalibera & Jones: the variance at the highest
# level, the pass); the shift test is the F test of passes in the
# two-way table benchmarks x passes (paired in order) of log ratios.
#
# Prints, per system other than BASE, one line:
#   system ka kb m ratio_1 .. ratio_k geomean lo hi df F df1 df2 p
args <- commandArgs(TRUE)
base <- args[2]
d <- read.delim(args[1], header = FALSE, quote = "", sep = "\t",
                col.names = c("sys", "grp", "x"),
                colClasses = c("character", "character", "numeric"))
r <- rle(d$sys)
d$st <- rep(seq_along(r$lengths), r$lengths)
ngrp <- tapply(d$grp, d$sys, function(g) length(unique(g)))
stg <- as.vector(tapply(d$grp, d$st, function(g) length(unique(g))))
is <- stg >= 2 & 2 * stg >= ngrp[r$values]
share <- tapply(r$lengths * is, r$values, sum) / tapply(r$lengths, r$values, sum)
if (length(ngrp) < 2 || any(share < 0.9)) {
    cat("no passes\n")
    quit(status = 0)
}
# each system's passes, numbered in order
pass <- rep(NA, length(r$lengths))
for (s in unique(r$values)) {
    k <- which(r$values == s & is)
    pass[k] <- seq_along(k)
}
d$pass <- pass[d$st]
d <- d[!is.na(d$pass), ]
est <- aggregate(x ~ sys + grp + pass, d, mean)
kof <- tapply(d$pass, d$sys, max)
f <- function(v) sprintf("%.10g", v)
for (s in setdiff(names(kof), base)) {
    ka <- kof[[s]]; kb <- kof[[base]]; kk <- min(ka, kb)
    ea <- est[est$sys == s, ]; eb <- est[est$sys == base, ]
    ok <- function(e, k) {
        t <- table(e$grp[e$x > 0])
        names(t)[t == k]
    }
    u <- sort(intersect(ok(ea, ka), ok(eb, kb)))
    m <- length(u)
    la <- sapply(1:ka, function(j) mean(log(ea$x[ea$pass == j][match(u, ea$grp[ea$pass == j])])))
    lb <- sapply(1:kb, function(j) mean(log(eb$x[eb$pass == j][match(u, eb$grp[eb$pass == j])])))
    ratio <- exp(la[1:kk] - lb[1:kk])
    gm <- exp(mean(la) - mean(lb))
    wa <- var(la) / ka; wb <- var(lb) / kb
    df <- (wa + wb)^2 / (wa^2 / (ka - 1) + wb^2 / (kb - 1))
    hw <- qt(0.975, df) * sqrt(wa + wb)
    lo <- exp(log(gm) - hw); hi <- exp(log(gm) + hw)
    # the two-way table of log ratios, benchmarks x paired passes
    y <- sapply(1:kk, function(j)
        log(ea$x[ea$pass == j][match(u, ea$grp[ea$pass == j])]) -
        log(eb$x[eb$pass == j][match(u, eb$grp[eb$pass == j])]))
    a <- anova(lm(as.vector(y) ~ factor(rep(1:m, kk)) + factor(rep(1:kk, each = m))))
    F <- a[2, "F value"]; p <- a[2, "Pr(>F)"]
    cat(s, ka, kb, m, f(ratio), f(gm), f(lo), f(hi), f(df), f(F), a[2, "Df"], a[3, "Df"], f(p), "\n")
}
