using DivCon.Metrics.Factored;
using DivCon.Metrics.Statistics;

namespace DivCon.Metrics;

/// <summary>One program under one scheme, over every invocation.</summary>
/// <param name="Program">The program's name.</param>
/// <param name="Csp">
/// C^SP, seconds: with two or more invocations, the summary of the per-invocation means (n = invocations; the interval is
/// over invocations); with one, of that invocation's runs (n = runs).
/// </param>
/// <param name="Cmp">C^MP, seconds, the same way, over the invocations with a recorded run; null if none was recorded.</param>
/// <param name="Runs">Recorded multiprogram runs, all invocations.</param>
/// <param name="Discarded">Runs still going at a limit, discarded.</param>
/// <param name="Ntt">NTT = C^MP / C^SP with Fieller's interval (<see cref="RatioEstimate"/>); null without C^MP.</param>
/// <param name="Np">NP = 1 / NTT; null without C^MP.</param>
/// <param name="Factored">
/// The factored decomposition of this program's multiprogram runs (issue 7), filled by a scheme with per-program core-time
/// accounting through <see cref="MultiprogramFactored.Compute"/>; null when the scheme has none, which cyclic.json reports
/// as <c>"factored": null</c> with <see cref="MultiprogramFactored.NoAccountingReason"/>.
/// </param>
public sealed record ProgramResult(
    string Program, Estimate Csp, Estimate? Cmp, int Runs, int Discarded, RatioEstimate? Ntt, RatioEstimate? Np, MultiprogramFactored? Factored = null);
