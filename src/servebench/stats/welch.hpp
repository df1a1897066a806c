#pragma once
// Welch's unequal-variances t-test, the report's rule for calling a difference between repeated
// points (docs/report.md "Repeats"). With two or three repeats a percentile-bootstrap interval of the
// median is the min–max, and two ranges of three values drawn from one distribution fail to overlap
// one time in ten (one in three for two values); requiring this test as well keeps the rate of
// differences called between identical arms under 5 % at every repeat count.
#include <span>

namespace servebench::stats {

// Two-sided p-value of Welch's t-test that `a` and `b` have equal means (Welch–Satterthwaite degrees
// of freedom, Student's t distribution). NaN when either has fewer than two values or a value is not
// finite. When both variances are zero: 1 for equal means, 0 otherwise.
double welch_p_value(std::span<const double> a, std::span<const double> b);

}  // namespace servebench::stats
