# Oracle values for the statistics of interloper report and plan, computed
# independently of the C code, in base R.  Run:
#   Rscript tests/stats/oracle/stats.R > tests/stats/oracle/stats.out
# Each line is "name value"; the unit tests (tests/stats/test_stats_oracle.c,
# test_stats_design.c) hold these values and cite this file.
options(digits = 15)
out <- function(name, x) cat(sprintf("%s %.15g\n", name, x))

# Fieller's set {t : (a - t b)^2 <= h^2 V(t)}, V(t) = v0 + 2 t c + t^2 v2 is
# here written as V(t) = va - 2 t cab + t^2 vb.
fieller <- function(a, b, va, vb, cab, h) {
  A <- b^2 - h^2 * vb
  B <- a * b - h^2 * cab
  C <- a^2 - h^2 * va
  D <- B^2 - A * C
  c((B - sqrt(D)) / A, (B + sqrt(D)) / A)
}

x <- c(10.2, 9.8, 10.5, 10.1, 9.9, 10.4, 10.0, 10.3)
y <- c(9.6, 9.9, 9.4, 9.7, 9.5, 9.8, 9.3, 9.9, 9.6, 9.7)
a <- mean(y); b <- mean(x); r <- a / b
# Textbook pooled-variance Fieller: one variance, n1 + n2 - 2 df.
sp <- ((length(y) - 1) * var(y) + (length(x) - 1) * var(x)) / (length(x) + length(y) - 2)
ci <- fieller(a, b, sp / length(y), sp / length(x), 0, qt(0.975, length(x) + length(y) - 2))
out("pooled_lo", ci[1]); out("pooled_hi", ci[2])
# Welch's df at the estimated ratio: variance va + r^2 vb.
va <- var(y) / length(y); vb <- var(x) / length(x)
df <- (va + r^2 * vb)^2 / (va^2 / (length(y) - 1) + (r^2 * vb)^2 / (length(x) - 1))
ci <- fieller(a, b, va, vb, 0, qt(0.975, df))
out("welch_df", df); out("welch_lo", ci[1]); out("welch_hi", ci[2])

# Paired Fieller over setups: the variance of mean(a_u - t b_u) is
# var(a - t b) / k with k - 1 df (Fieller 1954, paired form).
au <- c(101.2, 98.4, 103.9, 99.1, 102.5, 97.8)
bu <- c(100.1, 99.0, 101.7, 98.2, 100.9, 99.6)
k <- length(au)
ci <- fieller(mean(au), mean(bu), var(au) / k, var(bu) / k, cov(au, bu) / k, qt(0.975, k - 1))
out("paired_lo", ci[1]); out("paired_hi", ci[2])

# Crossed: 4 x 3 cells, x_ij = m + A_i + B_j + e_ij, balanced ANOVA.
# V(mean) = (MS_A + MS_B - MS_AB) / (I J), Satterthwaite df.
xa <- matrix(c(10.3, 11.1, 9.7, 10.9, 12.0, 10.1, 9.5, 10.8, 9.2, 11.4, 12.6, 10.8),
             nrow = 4, byrow = TRUE)
I <- nrow(xa); J <- ncol(xa)
d <- data.frame(v = as.vector(xa), A = factor(rep(1:I, J)), B = factor(rep(1:J, each = I)))
tab <- anova(lm(v ~ A + B, data = d))
msa <- tab["A", "Mean Sq"]; msb <- tab["B", "Mean Sq"]; mse <- tab["Residuals", "Mean Sq"]
V <- (msa + msb - mse) / (I * J)
dfc <- (msa + msb - mse)^2 / (msa^2 / (I - 1) + msb^2 / (J - 1) + mse^2 / ((I - 1) * (J - 1)))
out("crossed_mean", mean(xa)); out("crossed_V", V); out("crossed_df", dfc)
out("crossed_hw", qt(0.975, dfc) * sqrt(V))
out("crossed_sA", (msa - mse) / J); out("crossed_sB", (msb - mse) / I); out("crossed_se", mse)

# Heterogeneity: Cochran's Q with weights 1 / v, F reference with df2,
# Paule-Mandel tau^2 and the Q-profile interval (Viechtbauer 2007).
yh <- c(0.012, -0.030, 0.041, 0.005, -0.022, 0.060, -0.011, 0.019)
vh <- c(4e-4, 3e-4, 5e-4, 4e-4, 2e-4, 6e-4, 3e-4, 4e-4)
df2 <- 57.5
Qf <- function(t2) { w <- 1 / (vh + t2); m <- sum(w * yh) / sum(w); sum(w * (yh - m)^2) }
Q <- Qf(0); kk <- length(yh)
out("het_q", Q); out("het_p", pf(Q / (kk - 1), kk - 1, df2, lower.tail = FALSE))
out("het_i2", max(0, (Q - (kk - 1)) / Q))
solve_t2 <- function(target) if (Qf(0) <= target) 0 else
  uniroot(function(t) Qf(t) - target, c(0, 10), tol = 1e-14)$root
out("het_tau2", solve_t2(kk - 1))
# The report's interval has unequal tails (IL_TAU_TAIL_LO 4%, IL_TAU_TAIL_HI
# 1%, stats/il_stats.h): the lower end where Q(tau^2) meets Q's 96% point,
# the upper end where it meets its 1% point (96% coverage at tau^2 = 0, where
# the lower end is 0 whenever Q is below its 96% point).  Without shuffles
# (il_heterogeneity) the points are chi-squared's of k - 1 df.
out("het_tau2_lo", solve_t2(qchisq(0.96, kk - 1)))
out("het_tau2_hi", solve_t2(qchisq(0.01, kk - 1)))

# Order-statistic interval of a quantile: [x_(l), x_(u)] with
# l = qbinom(0.025, n, p), u = qbinom(0.975, n, p) + 1; when l is 0 the
# lower end is the minimum and u grows until the coverage is 0.95.
cover <- function(l, u, n, p) pbinom(u - 1, n, p) - (if (l >= 1) pbinom(l - 1, n, p) else 0)
xs <- c(58.9, 62.1, 59.4, 61.7, 58.5, 63.0, 59.9, 60.2, 58.7, 64.4, 59.1, 60.8, 61.2, 58.6,
        59.6, 62.7, 60.0, 58.8, 65.1, 59.3, 60.5, 59.0, 61.0, 58.4, 62.3, 59.8, 60.1, 58.95,
        63.6, 59.45)
for (p in c(0.1, 0.5)) {
  n <- length(xs); l <- qbinom(0.025, n, p); u <- qbinom(0.975, n, p) + 1
  if (l < 1) { l <- 1; while (u <= n && cover(l, u, n, p) < 0.95) u <- u + 1 }
  s <- sort(xs)
  out(sprintf("q%02d", round(100 * p)), quantile(xs, p, type = 7))
  out(sprintf("q%02d_lo", round(100 * p)), s[l]); out(sprintf("q%02d_hi", round(100 * p)), s[u])
  out(sprintf("q%02d_cover", round(100 * p)), cover(l, u, n, p))
}

# Holm.
ph <- c(0.01, 0.04, 0.03, 0.20, 0.005)
h <- p.adjust(ph, "holm")
for (i in seq_along(h)) out(sprintf("holm_%d", i), h[i])

# Plan: builds, executions, iterations with costs 100, 1, 10 (highest
# first), T^2 = (1, 2.5, 0): the integer counts that minimise cost times
# variance per build, by brute force.
Tb <- 1; Te <- 2.5; Ti <- 0; cb <- 100; ce <- 1; ci_ <- 10
best <- c(Inf, NA, NA)
for (re in 1:100) for (ri in 1:20) {
  f <- (cb + re * (ce + ri * ci_)) * (Tb + Te / re + Ti / (re * ri))
  if (f < best[1]) best <- c(f, re, ri)
}
out("plan_exec", best[2]); out("plan_iter", best[3])

# Q-profile interval of the same tau^2 at 97.5% (il_tau2_ci), for two
# intervals that must hold together.
out("het_tau2_lo975", solve_t2(qchisq(0.9875, kk - 1)))
out("het_tau2_hi975", solve_t2(qchisq(0.0125, kk - 1)))

# A group's setup effect (setupfx.c, interloper-report(1) "Setup
# effects"): 6 setups of 5 runs, setup s4 about 12% slower (pin off), and
# the same runs with s4 like the others (pin on).  log means, the pooled
# relative variance of the runs over n, Paule-Mandel tau^2 with its
# Q-profile interval; the ratio on/off of tau^2 with 97.5% intervals.
# tests/system/stats_setupfx.sh holds the same runs.
runs_off <- list(c(100.2, 101.5, 99.8, 100.9, 100.4), c(100.8, 99.6, 101.1, 100.3, 99.9),
                 c(99.7, 100.6, 100.1, 101.2, 100.0), c(112.3, 111.0, 113.1, 111.8, 112.6),
                 c(100.5, 99.9, 100.7, 101.4, 100.2), c(101.0, 100.3, 99.5, 100.8, 100.6))
runs_on <- runs_off
runs_on[[4]] <- c(100.4, 101.2, 99.9, 100.6, 100.1)
effect <- function(runs, conf) {
  m <- sapply(runs, mean); y <- log(m); n <- sapply(runs, length)
  ra <- sum(unlist(mapply(function(x, mu) (x / mu - 1)^2, runs, m))) / sum(n - 1)
  v <- ra / n
  Qg <- function(t2) { w <- 1 / (v + t2); mu <- sum(w * y) / sum(w); sum(w * (y - mu)^2) }
  s <- function(target) if (Qg(0) <= target) 0 else
    uniroot(function(t) Qg(t) - target, c(0, 10), tol = 1e-15)$root
  k <- length(y)
  c(s(k - 1), s(qchisq(1 - (1 - conf) / 2, k - 1)), s(qchisq((1 - conf) / 2, k - 1)))
}
e_off <- effect(runs_off, 0.95); e_on <- effect(runs_on, 0.95)
out("gsu_off_tau2", e_off[1]); out("gsu_off_lo", e_off[2]); out("gsu_off_hi", e_off[3])
out("gsu_on_tau2", e_on[1]); out("gsu_on_lo", e_on[2]); out("gsu_on_hi", e_on[3])
b_off <- effect(runs_off, 0.975); b_on <- effect(runs_on, 0.975)
out("gsu_ratio_lo", b_on[2] / b_off[3]); out("gsu_ratio_hi", b_on[3] / b_off[2])
