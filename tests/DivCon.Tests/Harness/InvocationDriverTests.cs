using DivCon.Harness.Cyclic;
using DivCon.Harness.Progress;

namespace DivCon.Tests.Harness;

public sealed class InvocationDriverTests
{
    /// <summary>A launcher that makes invocation k from a formula, recording each call; fails on request.</summary>
    private sealed class FakeLauncher(int? failOn = null, int? renumber = null) : IInvocationLauncher
    {
        public List<(int Invocation, int Of)> Calls { get; } = [];

        public Task<CyclicInvocation> RunAsync(int invocation, int of, IRunProgress progress, CancellationToken cancellationToken)
        {
            Calls.Add((invocation, of));
            if (invocation == failOn)
            {
                throw new ProgramRunException("a", $"invocation {invocation} failed");
            }

            var random = new Random(invocation);
            return Task.FromResult(CyclicFixtures.Invocation(renumber ?? invocation, ["a"], [[1.0]],
                [("x", [new ProgramRuns([2 * (1 + (0.3 * random.NextDouble()))], 0)]), ("y", [new ProgramRuns([2.1 * (1 + (0.3 * random.NextDouble()))], 0)])]));
        }
    }

    private static MetricInference Needs(string metric, int? invocations) => new(metric, 3, null, 0.05, 2, 0.01, 0.8, 0.3, 0.05, invocations);

    [Fact]
    public async Task Fixed_RunsExactlyThatMany_InOrder()
    {
        var launcher = new FakeLauncher();
        var lines = new List<string>();

        var (invocations, sizing) = await new InvocationDriver(launcher, new LineProgress(lines.Add)).RunAsync(new InvocationCount(4), _ => throw new InvalidOperationException("not asked"));

        Assert.Equal([1, 2, 3, 4], invocations.Select(i => i.Invocation));
        Assert.Equal([(1, 4), (2, 4), (3, 4), (4, 4)], launcher.Calls);
        Assert.Null(sizing);
        Assert.Contains(lines, l => l.StartsWith("invocation 4/4: done", StringComparison.Ordinal));
    }

    [Fact]
    public async Task Auto_RunsThePilot_ThenWhatItsNoiseNeeds()
    {
        var launcher = new FakeLauncher();
        IReadOnlyList<CyclicInvocation>? pilot = null;

        var (invocations, sizing) = await new InvocationDriver(launcher).RunAsync(new InvocationCount(0, Detect: 0.05, Pilot: 3, Max: 20), p =>
        {
            pilot = p.ToArray();
            return [Needs("antt", 7), Needs("stp", 11)];
        });

        Assert.Equal(3, pilot!.Count);
        Assert.Equal(11, invocations.Count);
        Assert.Equal([(1, 3), (2, 3), (3, 3), (4, 11)], launcher.Calls.Take(4));
        Assert.Equal(new InvocationSizing(3, 0.05, sizing!.Required, 11, false), sizing);
        Assert.Equal(7, sizing.Required["antt"]);
    }

    [Theory]
    [InlineData(2, 3, false)]     // less than the pilot: the pilot is enough
    [InlineData(25, 20, true)]    // more than the cap: the cap, marked
    [InlineData(null, 20, true)]  // unknown (more than the analysis's own cap): the cap, marked
    public void Size_IsThePilotAtLeast_TheCapAtMost(int? needed, int planned, bool capped)
    {
        InvocationSizing s = InvocationDriver.Size(new InvocationCount(0, 0.05, 3, 20), [Needs("antt", needed), Needs("stp", 2)]);

        Assert.Equal(planned, s.Planned);
        Assert.Equal(capped, s.Capped);
    }

    [Fact]
    public async Task AFailingInvocation_AbandonsTheRun_AndAMisnumberedOneIsRefused()
    {
        await Assert.ThrowsAsync<ProgramRunException>(() => new InvocationDriver(new FakeLauncher(failOn: 2)).RunAsync(new InvocationCount(3), _ => []));
        await Assert.ThrowsAsync<InvalidOperationException>(() => new InvocationDriver(new FakeLauncher(renumber: 1)).RunAsync(new InvocationCount(2), _ => []));
        await Assert.ThrowsAsync<ArgumentException>(() => new InvocationDriver(new FakeLauncher()).RunAsync(new InvocationCount(0), _ => []));
    }

    [Fact]
    public void Count_Validation_ListsEveryProblem()
    {
        Assert.Empty(new InvocationCount(1).Validate());
        Assert.Single(new InvocationCount(0).Validate());
        Assert.Equal(3, new InvocationCount(0, Detect: 1.5, Pilot: 1, Max: 0).Validate().Count);
    }
}
