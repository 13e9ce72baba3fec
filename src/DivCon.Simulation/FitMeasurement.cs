namespace DivCon.Simulation;

/// <summary>
/// The factored measurement a model was fitted to, and the fit: T_s, T_1 and, at the largest P measured, T_P, I_P and
/// F_P = P·T_P − I_P − T_1 (seconds, means over the runs), and what the simulator gives back with the fitted model.
/// </summary>
/// <param name="Cores">P.</param>
/// <param name="TsSeconds">T_s.</param>
/// <param name="T1Seconds">T_1.</param>
/// <param name="TpSeconds">T_P.</param>
/// <param name="IpSeconds">I_P.</param>
/// <param name="FpSeconds">F_P.</param>
/// <param name="WorkFactor">What the profile's times were multiplied by so that the simulated T_1 is the measured one.</param>
/// <param name="SimulatedInflation">Simulated F_P / T_1 at P with the fitted intensity (the measured one is FpSeconds / T1Seconds).</param>
public sealed record FitMeasurement(int Cores, double TsSeconds, double T1Seconds, double TpSeconds, double IpSeconds, double FpSeconds, double WorkFactor, double SimulatedInflation);
