namespace DivCon.Simulation.Validation;

/// <summary>A program alone on P cores: measured and simulated T_P.</summary>
/// <param name="Program">The program.</param>
/// <param name="P">Cores.</param>
/// <param name="MeasuredSeconds">Measured mean T_P.</param>
/// <param name="SimulatedSeconds">Simulated mean T_P.</param>
/// <param name="RelativeError">(simulated − measured) / measured.</param>
/// <param name="Target">The tolerance the issue sets (0.10 for P = 1 and 2), or null.</param>
/// <param name="Met">|error| ≤ target, or null without a target.</param>
public sealed record IsolatedComparison(string Program, int P, double MeasuredSeconds, double SimulatedSeconds, double RelativeError, double? Target, bool? Met);
