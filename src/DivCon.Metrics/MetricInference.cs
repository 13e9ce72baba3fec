using DivCon.Metrics.Statistics;

namespace DivCon.Metrics;

/// <summary>
/// What a run can say about one metric across all schemes: the blocked analysis (scheme × invocation on the log
/// scale, <see cref="BlockedAnova"/>), and its power: the smallest difference between two schemes it resolves, and how
/// many invocations a difference of <see cref="Detect"/> would need.
/// </summary>
/// <param name="Metric"><c>antt</c> or <c>stp</c>.</param>
/// <param name="Invocations">Invocations in which every scheme had the metric (the complete blocks).</param>
/// <param name="Anova">The blocked ANOVA; null with fewer than two schemes or two complete invocations.</param>
/// <param name="SdLog">√(2 · MS_error): the pooled SD of a paired log difference between two schemes; null without the ANOVA.</param>
/// <param name="FamilySize">m: comparisons in the family Holm corrects over (all metrics).</param>
/// <param name="Alpha">1 − confidence.</param>
/// <param name="Power">The power the planning figures are for.</param>
/// <param name="MinimumDetectable">
/// The relative difference (0.05 = 5 %) this many invocations resolve with <see cref="Power"/> at α / m; null without
/// the ANOVA.
/// </param>
/// <param name="Detect">The relative difference planned for.</param>
/// <param name="InvocationsToDetect">Invocations needed to resolve <see cref="Detect"/> at α / m with <see cref="Power"/>; null when more than the planning cap or unknown.</param>
public sealed record MetricInference(
    string Metric,
    int Invocations,
    BlockedAnovaResult? Anova,
    double? SdLog,
    int FamilySize,
    double Alpha,
    double Power,
    double? MinimumDetectable,
    double Detect,
    int? InvocationsToDetect);
