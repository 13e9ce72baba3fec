namespace DivCon.Simulation;

/// <summary>A program alone on all cores (the C^SP phase), and what the policies are told about it.</summary>
/// <param name="Program">Its name.</param>
/// <param name="ModelSource">Where its model came from (shipped, calibrated, scaled).</param>
/// <param name="ProblemSize">The problem size the model stands for.</param>
/// <param name="SplitDepth">Split levels of its tree on this machine.</param>
/// <param name="TasksPerRun">Tasks of one (balanced) run: node tasks plus merges.</param>
/// <param name="SequentialNs">T_seq: mean Σ task cost of a run, the time of a run on one core with no overheads.</param>
/// <param name="CspRunsNs">Each isolated run's duration.</param>
/// <param name="Csp">C^SP in seconds, with its spread.</param>
/// <param name="Scalability">T_seq / C^SP: the speedup the policies are told.</param>
/// <param name="ScalabilityTable">Speedups at 1, 2, 4, … cores (for hill climbing), or null when no scheme needs it.</param>
public sealed record IsolatedResult(
    string Program,
    string ModelSource,
    long ProblemSize,
    int SplitDepth,
    long TasksPerRun,
    double SequentialNs,
    IReadOnlyList<long> CspRunsNs,
    Estimate Csp,
    double Scalability,
    IReadOnlyList<CoreSpeedup>? ScalabilityTable);

/// <summary>A program's simulated speedup on <paramref name="Cores"/> cores.</summary>
/// <param name="Cores">Cores.</param>
/// <param name="Speedup">T_seq / run time on that many cores.</param>
public sealed record CoreSpeedup(int Cores, double Speedup);
