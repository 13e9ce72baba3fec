using DivCon.Partitioning;
using DivCon.Partitioning.Estimation;
using DivCon.Simulation.Engine;

namespace DivCon.Simulation;

/// <summary>
/// The cyclic test of thesis §5.4.1 on the simulator: C^SP of each program from isolated runs on all cores, then all
/// programs together under each scheme, each restarted as soon as it finishes, runs still going at the limit
/// discarded; then the harness's metrics (NTT, NP, ANTT, MNTT, STP) and statistics on the simulated times.
/// Deterministic: the result depends only on the request.
/// </summary>
public static class CyclicSimulator
{
    // Run numbers of the isolated phase start here, so they never coincide with multiprogram runs' numbers.
    private const int IsolatedRunBase = 1 << 24;

    /// <summary>Runs <paramref name="request"/>, the workload named <paramref name="workload"/>.</summary>
    /// <exception cref="ArgumentException">The request is invalid; the message lists every problem.</exception>
    public static SimulationResult Run(SimulationRequest request, string workload = "custom")
    {
        ArgumentNullException.ThrowIfNull(request);
        IReadOnlyList<string> problems = request.Validate();
        if (problems.Count > 0)
        {
            throw new ArgumentException(string.Join(" ", problems), nameof(request));
        }

        bool needTables = request.Schemes.Contains(SchemeCatalog.HillClimbing);
        var isolatedPerRepetition = new List<IReadOnlyList<IsolatedResult>>();
        var repetitions = new List<RepetitionRuns>(); // the same records as a measured cyclic test's
        var countersPerScheme = request.Schemes.ToDictionary(s => s, _ => new List<SimulationCounters>(), StringComparer.Ordinal);
        for (int r = 0; r < request.Repeat; r++)
        {
            // Each repetition is a whole cyclic test with its own seed: other trees (quicksort) and other victims.
            SimulationRequest repetition = r == 0 ? request : request with { Seed = SimRandom.Derive(request.Seed, (ulong)r) };
            IReadOnlyList<IsolatedResult> isolated = Isolate(repetition, needTables);
            isolatedPerRepetition.Add(isolated);
            var runs = new Dictionary<string, IReadOnlyList<ProgramRuns>>();
            foreach (string name in request.Schemes)
            {
                (SchemeArrangement arrangement, PartitioningSetup? setup) = Resolve(name, request.OnlineScalability);
                (runs[name], SimulationCounters counters) = RunScheme(repetition, isolated, arrangement, setup);
                countersPerScheme[name].Add(counters);
            }

            repetitions.Add(new RepetitionRuns([.. isolated.Select(iso => (IReadOnlyList<double>)[.. iso.CspRunsNs.Select(Seconds)])], runs));
        }

        // The harness's own analysis of the simulated run times.
        var (schemes, comparisons, _) = CyclicAnalysis.Analyze(
            request.Programs.Select(p => p.Name).ToArray(), request.Schemes.Select(s => (s, SchemeCatalog.Find(s)!.Description)).ToArray(), repetitions);
        return new SimulationResult(workload, request.Cores, request.Seed, request.DurationNs / 1e9, request.SpRuns, request.Repeat,
            PoolIsolated(isolatedPerRepetition), schemes, comparisons, request.Schemes.ToDictionary(s => s, s => Sum(countersPerScheme[s])))
        {
            ScalabilitySource = request.OnlineScalability ? "online" : "model",
        };
    }

    /// <summary>
    /// How the simulator models the simulated scheme <paramref name="name"/> of the <see cref="SchemeCatalog"/>: the same
    /// arrangement, and for a partitioned scheme the very policy object the harness gives the <c>MultiProgramScheduler</c>,
    /// asked through the same repartitioner every repartitioning interval (the static schemes too: with fewer cores than
    /// programs the ticks rotate the cores, so no program is starved for good, as in the harness). With
    /// <paramref name="online"/>, the policy is given the online scalability estimates.
    /// </summary>
    internal static (SchemeArrangement Arrangement, PartitioningSetup? Partitioning) Resolve(string name, bool online = false)
    {
        SchemeInfo scheme = SchemeCatalog.Simulated.First(s => s.Name == name);
        return (scheme.Arrangement, scheme.Arrangement != SchemeArrangement.Partitioned ? null
            : new PartitioningSetup(scheme.CreatePolicy!(), scheme.RepartitionOnDemand, scheme.IdleLending, online ? new ScalabilityEstimatorOptions() : null));
    }

    private static IReadOnlyList<IsolatedResult> PoolIsolated(IReadOnlyList<IReadOnlyList<IsolatedResult>> perRepetition) =>
        perRepetition[0].Select((first, i) =>
        {
            long[] runs = perRepetition.SelectMany(rep => rep[i].CspRunsNs).ToArray();
            return first with
            {
                SequentialNs = perRepetition.Average(rep => rep[i].SequentialNs),
                CspRunsNs = runs,
                Csp = Descriptive.Summarize(runs.Select(Seconds).ToArray()),
                Scalability = perRepetition.Average(rep => rep[i].Scalability),
            };
        }).ToArray();

    private static SimulationCounters Sum(IReadOnlyList<SimulationCounters> all) => new(
        all.Sum(c => c.Events),
        all.Sum(c => c.Tasks),
        all.Sum(c => c.Steals),
        all.Sum(c => c.FailedSteals),
        all.Sum(c => c.ContextSwitches),
        all.Sum(c => c.Preemptions),
        all.Sum(c => c.ColdStarts),
        all.Sum(c => c.WorkerMoves),
        all.Sum(c => c.Loans),
        all.Sum(c => c.ProgramSwitches),
        all.Sum(c => c.PolicyCalls),
        all[0].CoreNs.Keys.ToDictionary(k => k, k => all.Sum(c => c.CoreNs[k])),
        PerProgram(all, c => c.AllocatedCoreNs, Enumerable.Sum))
    {
        ServedCoreNs = PerProgram(all, c => c.ServedCoreNs, Enumerable.Sum),
        Recalls = all.Sum(c => c.Recalls),
        DemandDecisions = all.Sum(c => c.DemandDecisions),
        Rejections = all.Sum(c => c.Rejections),
        OnlineScalability = PerProgram(all, c => c.OnlineScalability, Enumerable.Average),
    };

    // Per program, its values in the repetitions combined; null when the repetitions have none.
    private static T[]? PerProgram<T>(IReadOnlyList<SimulationCounters> all, Func<SimulationCounters, IReadOnlyList<T>?> of, Func<IEnumerable<T>, T> combine) =>
        of(all[0]) is { } first ? Enumerable.Range(0, first.Count).Select(i => combine(all.Select(c => of(c)![i]))).ToArray() : null;

    /// <summary>The isolated phase: <see cref="SimulationRequest.SpRuns"/> runs of each program alone on all cores.</summary>
    internal static IReadOnlyList<IsolatedResult> Isolate(SimulationRequest request, bool withTables) => [.. request.Programs.Select(model =>
    {
        var shape = new TaskTreeShape(model, request.Cores);
        AloneRun[] runs =
            [.. Enumerable.Range(0, request.SpRuns).Select(k => RunAlone(request.Parameters, request.Seed, shape, request.Cores, IsolatedRunBase + k))];
        long[] durations = [.. runs.Select(r => r.DurationNs)];
        double tseq = runs.Average(r => r.WorkNs);
        Estimate csp = Descriptive.Summarize(durations.Select(Seconds).ToArray());
        double scalability = tseq / 1e9 / csp.Mean;
        List<CoreSpeedup>? table = withTables ? [] : null;
        for (int p = 1; table is not null && p < request.Cores; p *= 2)
        {
            AloneRun run = RunAlone(request.Parameters, request.Seed, shape, p, IsolatedRunBase);
            table.Add(new CoreSpeedup(p, (double)run.WorkNs / run.DurationNs));
        }

        table?.Add(new CoreSpeedup(request.Cores, scalability));
        return new IsolatedResult(model.Name, model.Source, model.ProblemSize, shape.Depth, runs.Max(r => r.Tasks), tseq, durations, csp, scalability, table);
    })];

    /// <summary>One run of a program alone: its duration, its work (Σ cost), its tasks, and its cores' idle time.</summary>
    /// <param name="DurationNs">The run's duration.</param>
    /// <param name="WorkNs">Σ cost of its tasks: its time on one core without overheads or contention.</param>
    /// <param name="Tasks">Tasks executed.</param>
    /// <param name="IdleNs">Core-time with no task: idle cores and failed steal attempts (what a real scheduler's idle counter sees).</param>
    internal readonly record struct AloneRun(long DurationNs, long WorkNs, long Tasks, long IdleNs);

    /// <summary>
    /// Run <paramref name="runIndex"/> of the program of <paramref name="shape"/> alone on a machine of
    /// <paramref name="cores"/> cores (the shape's granularity may be set for another core count).
    /// </summary>
    internal static AloneRun RunAlone(SimulationParameters parameters, ulong seed, TaskTreeShape shape, int cores, int runIndex)
    {
        var pool = new WorkPool(0, cores);
        var program = new SimProgram
        {
            Index = 0,
            Shape = shape,
            Seed = ProgramSeed(seed, shape.Model.Name),
            Pool = pool,
            FirstRunIndex = runIndex,
        };
        var machine = new Machine(cores, parameters, SchemeArrangement.Shared, [program], [pool], seed);
        long duration = machine.RunIsolated(program);
        return new AloneRun(duration, program.RunWorkNs[0], machine.TasksExecuted, machine.IdleNs + machine.Buckets[(int)StepKind.Search]);
    }

    /// <summary>The multiprogram phase under one scheme: each program's recorded runs (the one going at the end discarded), the counters.</summary>
    private static (IReadOnlyList<ProgramRuns> Runs, SimulationCounters Counters) RunScheme(
        SimulationRequest request, IReadOnlyList<IsolatedResult> isolated, SchemeArrangement arrangement, PartitioningSetup? setup)
    {
        Machine machine = BuildMachine(request, isolated, arrangement, setup);
        machine.RunCyclic(request.DurationNs);
        return ([.. machine.Programs.Select(p => new ProgramRuns([.. p.Durations.Select(Seconds)], p.Current is null ? 0 : 1))], machine.Counters());
    }

    internal static Machine BuildMachine(
        SimulationRequest request, IReadOnlyList<IsolatedResult> isolated, SchemeArrangement arrangement, PartitioningSetup? setup)
    {
        int n = request.Cores;
        WorkPool[] pools = [.. Enumerable.Range(0, arrangement == SchemeArrangement.Shared ? 1 : request.Programs.Count).Select(i => new WorkPool(i, n))];
        SimProgram[] programs = [.. request.Programs.Select((model, i) => new SimProgram
        {
            Index = i,
            Shape = new TaskTreeShape(model, n),
            Seed = ProgramSeed(request.Seed, model.Name),
            Pool = pools[arrangement == SchemeArrangement.Shared ? 0 : i],
            Scalability = isolated[i].Scalability,
            // Only the policy that reads tables gets them (so the other schemes' results do not depend on which
            // schemes share the request); the harness registers programs with their scalability alone.
            Table = setup?.Policy is HillClimbingPolicy && isolated[i].ScalabilityTable is { } t
                ? new ScalabilityTable(t.Select(x => (x.Cores, x.Speedup)))
                : null,
        })];

        return new Machine(n, request.Parameters, arrangement, programs, pools, request.Seed, setup);
    }

    /// <summary>A program's seed: from the request's seed and its name (FNV-1a), so its trees do not depend on the workload it is in.</summary>
    internal static ulong ProgramSeed(ulong seed, string name)
    {
        ulong hash = 14695981039346656037UL;
        foreach (char c in name)
        {
            hash = (hash ^ c) * 1099511628211UL;
        }

        return SimRandom.Derive(seed, hash);
    }

    private static double Seconds(long ns) => ns / 1e9;
}
