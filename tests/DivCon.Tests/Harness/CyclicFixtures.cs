using DivCon.Harness.Cyclic;

namespace DivCon.Tests.Harness;

/// <summary>Raw invocations and the results built from them, for report, JSON and factored tests.</summary>
internal static class CyclicFixtures
{
    public static readonly MachineInfo Machine = new(2, [0, 1], "TestOS", ".NET test", "X64", "abc123", false);

    public static readonly DateTimeOffset Started = new(2026, 11, 22, 0, 0, 0, TimeSpan.Zero);

    /// <summary>
    /// Invocation <paramref name="k"/> of programs <paramref name="programs"/>: C^SP runs per program, and per scheme each
    /// program's multiprogram runs (with the schedulers' report, when given).
    /// </summary>
    public static CyclicInvocation Invocation(int k, IReadOnlyList<string> programs, IReadOnlyList<IReadOnlyList<double>> csp,
        IReadOnlyList<(string Scheme, IReadOnlyList<ProgramRuns> Runs)> schemes, Func<string, IReadOnlyList<SchedulerStats>>? stats = null,
        IReadOnlyList<double>? sequential = null, IReadOnlyList<double>? oneWorker = null) =>
        new(k, 1000 + k, Started.AddMinutes(k), 60, schemes.Select(s => s.Scheme).Reverse().ToArray(),
            programs.Select((p, i) => new InvocationProgram(p, [csp[i][0] * 1.5], csp[i], SteadyState: i != 1 || k != 2, 0.01, [],
                sequential is null ? [] : [sequential[i]], oneWorker is null ? [] : [oneWorker[i]])).ToArray(),
            schemes.Select(s => new InvocationScheme(s.Scheme, s.Runs, 10, 10, stats?.Invoke(s.Scheme) ?? programs.Select((_, i) => new SchedulerStats("fake", i, 1, false)).ToArray())).ToArray());

    /// <summary>The configuration of a test of <paramref name="programs"/> under <paramref name="schemes"/>.</summary>
    public static CyclicPlanRecord Config(IReadOnlyList<string> programs, IReadOnlyList<string> schemes, int repeat = 1) =>
        new("cyclic", programs, schemes, "sp", "small", 10, 2, 0, repeat, [0, 1], 3, true, 15, 0.03, 3, 3, null, "measured");

    /// <summary>The result of <paramref name="invocations"/>, analysed as a run would.</summary>
    public static CyclicResult Result(IReadOnlyList<string> programs, IReadOnlyList<string> schemes, IReadOnlyList<CyclicInvocation> invocations, AnalysisOptions? options = null) =>
        CyclicResults.Build(Config(programs, schemes, invocations.Count), invocations, s => $"scheme {s}", options ?? new AnalysisOptions(), Machine, Started, 12.5);

    /// <summary>Program a: C^SP {1, 1.1, 1.05, 1.05}, C^MP {2, 2.5, 2.25, 2.25}; b: C^SP {2, 2.2}, C^MP {5} (or none), one run discarded.</summary>
    public static CyclicResult OneInvocation(bool withRuns, Func<string, IReadOnlyList<SchedulerStats>>? stats = null) =>
        Result(["a", "b"], ["x"],
        [
            Invocation(1, ["a", "b"], [[1.0, 1.1, 1.05, 1.05], [2.0, 2.2]],
                [("x", withRuns ? [new ProgramRuns([2.0, 2.5, 2.25, 2.25], 0), new ProgramRuns([5.0], 1)] : [new ProgramRuns([2.0], 0), new ProgramRuns([], 1)])], stats),
        ]);
}
