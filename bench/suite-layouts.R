# bench/suite-layouts.R: an oracle for the report's suite intervals when
# every benchmark was measured in the same setups (suiteshare.c, outside15
# H1), written from the rule in interloper-report(1) and the textbook, not
# from interloper's code.  Base R only (no packages).
#
# Input: a TSV of the records, one a line (no header):
#   benchmark <TAB> system <TAB> setup label 1 <TAB> [setup label 2 <TAB>] value
# e.g. (the estimator is the mean; status-0 runs):
#   jq -r '[.labels.bench, .labels.system, .labels.layout, .times.wall_ns] | @tsv' d.jsonl >d.tsv
#   Rscript bench/suite-layouts.R d.tsv A
# beside  interloper report --json --by bench --compare system=A --setup layout d.jsonl
# (its suite: geomean, ci, ci_benchmarks, shared_setups.df, .df_benchmarks).
# With two setup labels (crossed, the first is --setup's first), every
# cell must be present (the balanced case, where Henderson's method I is
# the ANOVA estimator).
#
# The rule (Kalibera & Jones, ISMM 2013, sections 3 and 9: the variance at
# the highest level that varies at random, here the setup every benchmark
# shares): per benchmark b and setup u, the ratio of the mean of the
# value's runs to the baseline's, q_bu; the benchmark's ratio r_b, the
# mean over its setups of the value's setup means over the baseline's;
# the suite's geometric mean exp(mean log r_b).  y_u = mean over b of log
# q_bu.  These benchmarks: V the variance of mean y, one label var(y)/k
# with k - 1 df; two crossed labels the random two-way model without
# interaction (V = (MS_A + MS_B - MS_E) / N, a component estimated below 0
# dropped and its sum of squares pooled, Satterthwaite's df, clamped to
# [1, N - 1]).  Like these: W = V + var(log r_b) / n, Satterthwaite's df
# over the two terms.  Both intervals: exp(log gm +- t sqrt(V or W)).
#
# Prints, per system other than BASE: system geomean lo hi df blo bhi bdf
a <- commandArgs(TRUE)
d <- read.delim(a[1], header = FALSE, colClasses = "character")
base <- a[2]
nc <- ncol(d)
crossed <- nc == 5
d$v <- as.numeric(d[[nc]])
d$u <- if (crossed) paste(d[[3]], d[[4]], sep = "|") else d[[3]]
for (sys in setdiff(unique(d[[2]]), base)) {
  benches <- sort(unique(d[[1]]))
  units <- sort(unique(d$u))
  Q <- matrix(NA, length(benches), length(units), dimnames = list(benches, units))
  lr <- numeric(length(benches))
  for (i in seq_along(benches)) {
    x <- d[d[[1]] == benches[i], ]
    ma <- tapply(x$v[x[[2]] == sys], x$u[x[[2]] == sys], mean)
    mb <- tapply(x$v[x[[2]] == base], x$u[x[[2]] == base], mean)
    Q[i, ] <- log(ma[units] / mb[units])
    lr[i] <- log(mean(ma[units]) / mean(mb[units]))
  }
  g <- mean(lr)
  y <- colMeans(Q)
  k <- length(y)
  if (!crossed) {
    V <- var(y) / k
    df <- k - 1
  } else {
    fa <- sub("\\|.*", "", names(y))
    fb <- sub(".*\\|", "", names(y))
    I <- length(unique(fa)); J <- length(unique(fb)); N <- k
    m <- mean(y)
    SSA <- J * sum((tapply(y, fa, mean) - m)^2)
    SSB <- I * sum((tapply(y, fb, mean) - m)^2)
    SST <- sum((y - m)^2)
    SSE <- SST - SSA - SSB
    MSA <- SSA / (I - 1); MSB <- SSB / (J - 1); MSE <- SSE / ((I - 1) * (J - 1))
    sA <- (MSA - MSE) / J; sB <- (MSB - MSE) / I
    model <- if (sA < 0 && sB < 0) 3 else if (sA < 0) 1 else if (sB < 0) 2 else 0
    if (model == 1 && MSB - (SSA + SSE) / (N - J) < 0) model <- 3
    if (model == 2 && MSA - (SSB + SSE) / (N - I) < 0) model <- 3
    terms <- switch(model + 1,
      c(MSA, MSB, -MSE) / N,
      MSB / N,
      MSA / N,
      SST / (N - 1) / N)
    f <- switch(model + 1, c(I - 1, J - 1, (I - 1) * (J - 1)), J - 1, I - 1, N - 1)
    V <- sum(terms)
    df <- min(max(V^2 / sum(terms^2 / f), 1), N - 1)
  }
  n <- length(lr)
  Vb <- var(lr) / n
  W <- V + Vb
  bdf <- W^2 / (V^2 / df + Vb^2 / (n - 1))
  h <- qt(.975, df) * sqrt(V)
  hb <- qt(.975, bdf) * sqrt(W)
  cat(sys, sprintf("%.10g", c(exp(g), exp(g - h), exp(g + h), df, exp(g - hb), exp(g + hb), bdf)), "\n")
}
