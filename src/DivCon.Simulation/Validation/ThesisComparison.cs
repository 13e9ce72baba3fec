namespace DivCon.Simulation.Validation;

/// <summary>One stated speedup and the simulator's.</summary>
/// <param name="Claim">The statement.</param>
/// <param name="Simulated">The simulated speedup T_s / T_P.</param>
/// <param name="RelativeError">(simulated − stated) / stated.</param>
/// <param name="Met">|error| ≤ <see cref="ThesisSpeedups.Target"/>.</param>
/// <param name="WithoutContention">The simulated speedup with memory contention 0, for comparison.</param>
public sealed record ThesisComparison(ThesisClaim Claim, double Simulated, double RelativeError, bool Met, double WithoutContention);
