namespace DivCon.Simulation.Validation;

/// <summary>
/// The record <c>validate.json</c> holds (<c>divcon simulate validate</c>): what was measured on this machine, what the
/// simulator gave for the same configuration, and the comparison, with every run time on both sides so each number
/// can be recomputed.
/// </summary>
/// <param name="Settings">What was measured and simulated.</param>
/// <param name="SimulatedMachine">The machine model the simulator used (its memory contention).</param>
/// <param name="Models">Where the program models came from, per program (their sources).</param>
/// <param name="MeasuredIsolated">Each program alone at P = 1 … N, measured (the harness's factored measurement).</param>
/// <param name="SimulatedIsolated">The same, simulated.</param>
/// <param name="MeasuredCyclic">Per workload, the measured cyclic test (one repetition).</param>
/// <param name="SimulatedCyclic">Per workload, the simulated cyclic test.</param>
/// <param name="Isolated">Per program and P: T_P measured and simulated.</param>
/// <param name="Cyclic">Per workload and scheme: NTT per program, ANTT and STP, measured and simulated.</param>
public sealed record ValidationFile(
    ValidationSettings Settings,
    MachineModel SimulatedMachine,
    IReadOnlyDictionary<string, string> Models,
    IReadOnlyList<FactoredProgramResult> MeasuredIsolated,
    IReadOnlyList<FactoredProgramResult> SimulatedIsolated,
    IReadOnlyList<MeasuredWorkload> MeasuredCyclic,
    IReadOnlyList<SimulationResult> SimulatedCyclic,
    IReadOnlyList<IsolatedComparison> Isolated,
    IReadOnlyList<CyclicComparison> Cyclic) : ExperimentFile(FileKind)
{
    /// <summary>The file kind and base name.</summary>
    public const string FileKind = "validate";

    /// <summary>How every number was computed, recorded in the file.</summary>
    public string Method =>
        "Isolated: each program alone at P = 1 … N on a work-stealing scheduler, the automatic granularity for N cores at every P "
        + "(the harness's factored measurement: means over the runs); simulated the same way (IsolatedSimulation: a machine of P cores, the same tree). "
        + "Cyclic: the harness's cyclic test (C^SP on oversubscribed-free alone on all cores, then all programs under each scheme, one repetition) "
        + "and the simulated cyclic test on the same cores, duration and C^SP runs. relativeError = (simulated − measured) / measured; "
        + "targets: T_1 and T_2 within 10 %, NTT and ANTT within 15 % (issue 19); other rows have no target (null).";
}
