using DivCon.Harness.Statistics;

namespace DivCon.Simulation;

/// <summary>A program alone on all cores (the C^SP phase), and what the policies are told about it.</summary>
/// <param name="Program">Its name.</param>
/// <param name="SplitDepth">Split levels of its tree on this machine.</param>
/// <param name="TasksPerRun">Tasks of one (balanced) run: node tasks plus merges.</param>
/// <param name="SequentialNs">T_seq: mean Σ task cost of a run, the time of a run on one core with no overheads.</param>
/// <param name="CspRunsNs">Each isolated run's duration.</param>
/// <param name="Csp">C^SP in seconds, with its spread.</param>
/// <param name="Scalability">T_seq / C^SP: the speedup the policies are told.</param>
/// <param name="ScalabilityTable">Speedups at 1, 2, 4, … cores (for hill climbing), or null when no scheme needs it.</param>
public sealed record IsolatedResult(
    string Program,
    int SplitDepth,
    long TasksPerRun,
    double SequentialNs,
    IReadOnlyList<long> CspRunsNs,
    Estimate Csp,
    double Scalability,
    IReadOnlyList<(int Cores, double Speedup)>? ScalabilityTable);

/// <summary>One program under one scheme.</summary>
/// <param name="Program">Its name.</param>
/// <param name="Csp">C^SP, seconds.</param>
/// <param name="Cmp">C^MP, seconds, or null when no run finished within the duration.</param>
/// <param name="CmpRunsNs">Each recorded multiprogram run's duration.</param>
/// <param name="Ntt">NTT = C^MP / C^SP with its interval, or null.</param>
/// <param name="Np">NP = 1 / NTT, or null.</param>
public sealed record ProgramResult(string Program, Estimate Csp, Estimate? Cmp, IReadOnlyList<long> CmpRunsNs, RatioEstimate? Ntt, RatioEstimate? Np);

/// <summary>Counters of one scheme's multiprogram simulation (no wall-clock quantity).</summary>
/// <param name="Events">Events processed.</param>
/// <param name="Tasks">Tasks executed.</param>
/// <param name="Steals">Successful steals.</param>
/// <param name="FailedSteals">Failed steal attempts.</param>
/// <param name="ContextSwitches">Core switches between worker threads.</param>
/// <param name="Preemptions">Workers preempted at the end of a time slice.</param>
/// <param name="ColdStarts">Threads resumed on another core (free oversubscription).</param>
/// <param name="WorkerMoves">MultiProgramScheduler workers moved between programs (reallocations and loans).</param>
/// <param name="Loans">Idle-lending loans.</param>
/// <param name="PolicyCalls">Calls of the policy's Decide.</param>
/// <param name="CoreNs">Core-time per bucket, ns: task, dispatch, steal, search, contextSwitch, migration, idle.</param>
/// <param name="AllocatedCoreNs">Per program, core-time its allocation gave it (partitioned schemes), or null.</param>
public sealed record SimulationCounters(
    long Events,
    long Tasks,
    long Steals,
    long FailedSteals,
    long ContextSwitches,
    long Preemptions,
    long ColdStarts,
    long WorkerMoves,
    long Loans,
    int PolicyCalls,
    IReadOnlyDictionary<string, long> CoreNs,
    IReadOnlyList<long>? AllocatedCoreNs);

/// <summary>One scheme on one workload: the harness's per-scheme metrics.</summary>
/// <param name="Scheme">Its name.</param>
/// <param name="Programs">Per program, in workload order.</param>
/// <param name="Antt">Mean NTT, or null when some program recorded no run.</param>
/// <param name="Mntt">Max NTT, or null.</param>
/// <param name="Stp">Σ NP, or null.</param>
/// <param name="Counters">What happened inside the simulation.</param>
public sealed record SchemeResult(string Scheme, IReadOnlyList<ProgramResult> Programs, double? Antt, double? Mntt, double? Stp, SimulationCounters Counters);

/// <summary>A whole simulated cyclic test.</summary>
/// <param name="Request">What was simulated.</param>
/// <param name="Isolated">The C^SP phase, per program.</param>
/// <param name="Schemes">Per scheme, in request order.</param>
public sealed record SimulationResult(SimulationRequest Request, IReadOnlyList<IsolatedResult> Isolated, IReadOnlyList<SchemeResult> Schemes);
