using DivCon.Harness.Metrics;
using DivCon.Harness.Statistics;
using DivCon.Partitioning;
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

    /// <summary>Runs <paramref name="request"/>.</summary>
    /// <exception cref="ArgumentException">The request is invalid; the message lists every problem.</exception>
    public static SimulationResult Run(SimulationRequest request)
    {
        ArgumentNullException.ThrowIfNull(request);
        IReadOnlyList<string> problems = request.Validate();
        if (problems.Count > 0)
        {
            throw new ArgumentException(string.Join(" ", problems), nameof(request));
        }

        bool needTables = request.Schemes.Any(s => s == HillClimbingPolicy.PolicyName);
        IReadOnlyList<IsolatedResult> isolated = Isolate(request, needTables);
        var schemes = new List<SchemeResult>();
        foreach (string name in request.Schemes)
        {
            (Arrangement arrangement, PartitioningSetup? setup) = SimulationSchemes.Resolve(name);
            schemes.Add(RunScheme(request, isolated, name, arrangement, setup));
        }

        return new SimulationResult(request, isolated, schemes);
    }

    /// <summary>The isolated phase: <see cref="SimulationRequest.SpRuns"/> runs of each program alone on all cores.</summary>
    internal static IReadOnlyList<IsolatedResult> Isolate(SimulationRequest request, bool withTables)
    {
        var results = new List<IsolatedResult>();
        foreach (ProgramModel model in request.Programs)
        {
            var shape = new TaskTreeShape(model, request.Cores);
            var durations = new List<long>();
            var work = new List<long>();
            long tasks = 0;
            for (int k = 0; k < request.SpRuns; k++)
            {
                (long duration, long runWork, long runTasks) = RunAlone(request, shape, request.Cores, IsolatedRunBase + k);
                durations.Add(duration);
                work.Add(runWork);
                tasks = Math.Max(tasks, runTasks);
            }

            double tseq = work.Average();
            Estimate csp = Descriptive.Summarize(durations.Select(Seconds).ToArray());
            double scalability = tseq / 1e9 / csp.Mean;
            List<(int, double)>? table = null;
            if (withTables)
            {
                table = [];
                for (int p = 1; p < request.Cores; p *= 2)
                {
                    (long d, long w, _) = RunAlone(request, shape, p, IsolatedRunBase);
                    table.Add((p, (double)w / d));
                }

                table.Add((request.Cores, scalability));
            }

            results.Add(new IsolatedResult(model.Name, shape.Depth, tasks, tseq, durations, csp, scalability, table));
        }

        return results;
    }

    private static (long Duration, long Work, long Tasks) RunAlone(SimulationRequest request, TaskTreeShape shape, int cores, int runIndex)
    {
        var pool = new WorkPool(0, cores);
        var program = new SimProgram
        {
            Index = 0,
            Shape = shape,
            Seed = ProgramSeed(request.Seed, shape.Model.Name),
            Pool = pool,
            FirstRunIndex = runIndex,
        };
        var machine = new Machine(cores, request.Parameters, Arrangement.SharedPool, [program], [pool], request.Seed);
        long duration = machine.RunIsolated(program);
        return (duration, program.RunWorkNs[0], machine.TasksExecuted);
    }

    /// <summary>The multiprogram phase under one scheme (tests pass their own policy through <paramref name="setup"/>).</summary>
    internal static SchemeResult RunScheme(
        SimulationRequest request, IReadOnlyList<IsolatedResult> isolated, string name, Arrangement arrangement, PartitioningSetup? setup)
    {
        Machine machine = BuildMachine(request, isolated, arrangement, setup);
        machine.RunCyclic(request.DurationNs);
        var programs = new List<ProgramResult>();
        for (int i = 0; i < machine.Programs.Count; i++)
        {
            SimProgram program = machine.Programs[i];
            IsolatedResult alone = isolated[i];
            double[] csp = alone.CspRunsNs.Select(Seconds).ToArray();
            double[] cmp = program.Durations.Select(Seconds).ToArray();
            int discarded = program.Current is null ? 0 : 1;
            if (cmp.Length == 0)
            {
                programs.Add(new ProgramResult(alone.Program, alone.Csp, null, [], discarded, null, null));
                continue;
            }

            RatioEstimate ntt = RatioEstimate.Of(cmp, csp);
            programs.Add(new ProgramResult(alone.Program, alone.Csp, Descriptive.Summarize(cmp), program.Durations.ToArray(), discarded, ntt, ntt.Reciprocal()));
        }

        double? antt = null, mntt = null, stp = null;
        if (programs.All(p => p.Ntt is not null))
        {
            double[] ntts = programs.Select(p => p.Ntt!.Mean).ToArray();
            antt = MultiprogramMetrics.Antt(ntts);
            mntt = MultiprogramMetrics.Mntt(ntts);
            stp = MultiprogramMetrics.Stp(programs.Select(p => p.Np!.Mean).ToArray());
        }

        return new SchemeResult(name, programs, antt, mntt, stp, Counters(machine));
    }

    internal static Machine BuildMachine(
        SimulationRequest request, IReadOnlyList<IsolatedResult> isolated, Arrangement arrangement, PartitioningSetup? setup)
    {
        int n = request.Cores;
        var pools = new List<WorkPool>();
        if (arrangement == Arrangement.SharedPool)
        {
            pools.Add(new WorkPool(0, n));
        }
        else
        {
            for (int i = 0; i < request.Programs.Count; i++)
            {
                pools.Add(new WorkPool(i, n));
            }
        }

        var programs = new List<SimProgram>();
        for (int i = 0; i < request.Programs.Count; i++)
        {
            ProgramModel model = request.Programs[i];
            IsolatedResult alone = isolated[i];
            programs.Add(new SimProgram
            {
                Index = i,
                Shape = new TaskTreeShape(model, n),
                Seed = ProgramSeed(request.Seed, model.Name),
                Pool = pools[arrangement == Arrangement.SharedPool ? 0 : i],
                Scalability = alone.Scalability,
                Table = alone.ScalabilityTable is { } t ? new ScalabilityTable(t) : null,
            });
        }

        return new Machine(n, request.Parameters, arrangement, programs, pools, request.Seed, setup);
    }

    private static SimulationCounters Counters(Machine m) => new(
        m.Events,
        m.TasksExecuted,
        m.Steals,
        m.FailedSteals,
        m.ContextSwitches,
        m.Preemptions,
        m.ColdStarts,
        m.WorkerMoves,
        m.Loans,
        m.ProgramSwitches,
        m.PolicyCalls,
        new Dictionary<string, long>
        {
            ["task"] = m.Buckets[(int)StepKind.Task],
            ["dispatch"] = m.Buckets[(int)StepKind.Dispatch],
            ["steal"] = m.Buckets[(int)StepKind.Steal],
            ["search"] = m.Buckets[(int)StepKind.Search],
            ["contextSwitch"] = m.Buckets[(int)StepKind.ContextSwitch],
            ["migration"] = m.Buckets[(int)StepKind.Migration],
            ["idle"] = m.IdleNs,
        },
        m.AllocatedCoreNs?.ToArray());

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
