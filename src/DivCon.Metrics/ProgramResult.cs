using DivCon.Metrics.Statistics;

namespace DivCon.Metrics;

/// <summary>One program under one scheme, pooled over every repetition's runs.</summary>
/// <param name="Program">The program's name.</param>
/// <param name="Csp">C^SP: the single-program runs (all repetitions), seconds.</param>
/// <param name="Cmp">C^MP: the recorded multiprogram runs (all repetitions), seconds; null if none was recorded.</param>
/// <param name="Runs">Recorded multiprogram runs.</param>
/// <param name="Discarded">Runs still going at a limit, discarded.</param>
/// <param name="Ntt">NTT = C^MP / C^SP with its delta-method interval; null without C^MP.</param>
/// <param name="Np">NP = 1 / NTT; null without C^MP.</param>
public sealed record ProgramResult(string Program, Estimate Csp, Estimate? Cmp, int Runs, int Discarded, RatioEstimate? Ntt, RatioEstimate? Np)
{
    /// <summary>
    /// The factored decomposition of this program's multiprogram runs (issue 7), filled by a scheme with per-program
    /// core-time accounting through <see cref="global::DivCon.Metrics.Factored.MultiprogramFactored.Compute"/>; null when the scheme has
    /// none, which cyclic.json reports as <c>"factored": null</c> with <see cref="global::DivCon.Metrics.Factored.MultiprogramFactored.NoAccountingReason"/>.
    /// </summary>
    public global::DivCon.Metrics.Factored.MultiprogramFactored? Factored { get; init; }
}
