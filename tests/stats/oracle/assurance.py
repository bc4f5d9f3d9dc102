#!/usr/bin/python3
"""Oracle values for plan's assurance (stats/levels.c), computed apart
from the C code with scipy.  Run: /usr/bin/python3 tests/stats/oracle/assurance.py
The unit test tests/stats/test_stats_assure.c holds these values.

At the initial experiment's own counts the predicted variance of a
top-level mean is S_n^2 with r_n - 1 df, and the probability that R top
repetitions give a 95% half-width within g is
P(F(R - 1, r_n - 1) <= R g^2 / (t(0.975, R - 1)^2 S_n^2)).
"""
from scipy import stats

# tests/golden/plan_target_boot: 3 execs x 4 iterations, S_2^2 = 3.5625,
# mean 6.5; a 25% target is a half-width of 1.625.
s2, df, g = 3.5625, 2, 0.25 * 6.5
for R in (8, 20, 60):
    t = stats.t.ppf(0.975, R - 1)
    print("assure_exec_R%d %.15g" % (R, stats.f.cdf(R * g * g / (t * t * s2), R - 1, df)))

# The smallest top count K of an initial experiment (m children each) for
# which T_n^2 > 0 with probability 0.9 when the top level's sd is sd and
# the children's mean square is s2c: P(F(K-1, K(m-1)) > 1/(1 + m sd^2/s2c)).
def need(sd, s2c, m, conf=0.9):
    cut = 1 / (1 + m * sd * sd / s2c)
    k = 2
    while stats.f.sf(cut, k - 1, k * (m - 1)) < conf:
        k += 1
    return k
print("pilot_need_sd1_s25_m5 %d" % need(1.0, 25.0, 5))
print("pilot_need_sd2_s25_m5 %d" % need(2.0, 25.0, 5))
