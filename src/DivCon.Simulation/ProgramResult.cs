using DivCon.Harness.Statistics;

namespace DivCon.Simulation;

/// <summary>One program under one scheme.</summary>
/// <param name="Program">Its name.</param>
/// <param name="Csp">C^SP, seconds.</param>
/// <param name="Cmp">C^MP, seconds, or null when no run finished within the duration.</param>
/// <param name="CmpRunsNs">Each recorded multiprogram run's duration.</param>
/// <param name="Discarded">Runs still going at the limit, discarded (0 or 1).</param>
/// <param name="Ntt">NTT = C^MP / C^SP with its interval, or null.</param>
/// <param name="Np">NP = 1 / NTT, or null.</param>
public sealed record ProgramResult(string Program, Estimate Csp, Estimate? Cmp, IReadOnlyList<long> CmpRunsNs, int Discarded, RatioEstimate? Ntt, RatioEstimate? Np);
