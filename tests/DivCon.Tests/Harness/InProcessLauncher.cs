using DivCon.Harness.Cyclic;
using DivCon.Harness.Progress;

namespace DivCon.Tests.Harness;

/// <summary>
/// Runs each invocation in this process on the test's clock: how the driver's tests stand in for the CLI's child
/// processes (on virtual time the only difference is the process id).
/// </summary>
internal sealed class InProcessLauncher(TimeProvider clock, CyclicPlan plan) : IInvocationLauncher
{
    public List<(int Invocation, int Of)> Calls { get; } = [];

    public Task<CyclicInvocation> RunAsync(int invocation, int of, IRunProgress progress, CancellationToken cancellationToken)
    {
        Calls.Add((invocation, of));
        return new CyclicExperiment(clock, progress).RunInvocationAsync(plan, invocation, of, cancellationToken);
    }

    /// <summary>Runs <paramref name="count"/> invocations through the driver and builds the result.</summary>
    public static CyclicResult Run(VirtualTime clock, CyclicPlan plan, int count, Action<string>? log = null)
    {
        var launcher = new InProcessLauncher(clock, plan);
        var (invocations, _) = clock.Run(() => new InvocationDriver(launcher, log is null ? null : new LineProgress(log))
            .RunAsync(new InvocationCount(count), _ => []));
        return CyclicResults.Build(CyclicPlanRecord.From(plan, count), invocations, CyclicExperiment.Describe(plan), new AnalysisOptions(),
            CyclicFixtures.Machine, CyclicFixtures.Started, 1);
    }
}
