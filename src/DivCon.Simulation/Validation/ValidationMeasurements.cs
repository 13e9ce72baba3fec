namespace DivCon.Simulation.Validation;

/// <summary>The measured side of <c>divcon simulate validate</c>: measured now, or read back from an earlier file.</summary>
/// <param name="Settings">What was measured (and is simulated).</param>
/// <param name="Isolated">Each program alone at P = 1 … N (the harness's factored measurement).</param>
/// <param name="Cyclic">Per workload, the measured cyclic test.</param>
/// <param name="StartedUtc">When the measurement started.</param>
/// <param name="ElapsedSeconds">How long it took.</param>
/// <param name="Machine">Where it was measured.</param>
public sealed record ValidationMeasurements(
    ValidationSettings Settings, IReadOnlyList<FactoredProgramResult> Isolated, IReadOnlyList<MeasuredWorkload> Cyclic, DateTimeOffset StartedUtc,
    double ElapsedSeconds, MachineInfo Machine);
