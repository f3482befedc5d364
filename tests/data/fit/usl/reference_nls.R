# R usl's least-squares problem, solved the way R usl 3.0.3 solves it with method = "nls"
# (smoeding/usl R/usl.R, usl.solve.nls: nls(..., algorithm = "port") with these start values and bounds).
# Run: Rscript tests/data/fit/usl/reference_nls.R   (R 4.2.2, Debian bookworm r-base-core 4.2.2.20221110-2)
# Its output is kept in reference_nls.Rout and pinned in tests/fitting/test_r_usl.py.
fitr <- function(x, y) {
  d <- data.frame(x=x, y=y)
  f <- nls(y ~ (gamma * x)/(1 + alpha * (x-1) + beta * x * (x-1)), data=d,
           start=c(gamma=max(d$y/d$x), alpha=0.01, beta=0.0001), algorithm="port",
           lower=c(gamma=0, alpha=0, beta=0), upper=c(gamma=Inf, alpha=1, beta=1))
  print(summary(f)$coefficients, digits=10); print(sigma(f), digits=10)
}
here <- "tests/data/fit/usl/"
s <- read.csv(paste0(here, "specsdm91.csv")); fitr(s$load, s$throughput)
r <- read.csv(paste0(here, "raytracer.csv")); fitr(r$processors, r$throughput); fitr(r$processors[1:6], r$throughput[1:6])
o <- read.csv(paste0(here, "oracledb.csv")); fitr(o$db_time, o$txn_rate)
