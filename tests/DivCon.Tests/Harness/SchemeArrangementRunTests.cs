using DivCon.Cli.Commands;
using DivCon.Harness.Cyclic;
using DivCon.Harness.Programs;
using DivCon.Harness.Schemes;
using DivCon.Samples;

namespace DivCon.Tests.Harness;

/// <summary>
/// Issue 6 must-show 3, for every scheme the CLI can run in this build: a short real multiprogram phase, then the
/// schedulers' own statistics must show the scheme's arrangement (shared vs separate schedulers, worker counts,
/// pinning). Schemes wired later are covered by the same test without change.
/// </summary>
public sealed class SchemeArrangementRunTests
{
    public static TheoryData<string> AvailableSchemes()
    {
        var data = new TheoryData<string>();
        foreach (SchemeDescriptor s in HarnessWiring.Schemes().Available)
        {
            data.Add(s.Name);
        }

        return data;
    }

    [Theory]
    [MemberData(nameof(AvailableSchemes))]
    public async Task ShortRun_SchedulerStatisticsShowTheArrangement(string name)
    {
        SchemeDescriptor scheme = HarnessWiring.Schemes().Find(name)!;
        IReadOnlyList<int> processors = MachineInfo.AffinityMask();
        IWorkloadProgram[] programs =
        [
            new SampleProgramAdapter(new SyntheticSpinProgram("p0", ProblemSize.Small, 200_000, 8, 0, 1)),
            new SampleProgramAdapter(new SyntheticSpinProgram("p1", ProblemSize.Small, 200_000, 8, 0.5, 2)),
        ];
        var context = new SchemeContext(programs.Select(p => new SchemeProgramInfo(p.Name, 1.5)).ToArray(), processors);

        IReadOnlyList<SchedulerStats> stats;
        PhaseResult phase;
        using (ISchedulerArrangement arrangement = scheme.Create(context))
        {
            var phasePrograms = programs.Select((p, i) => new PhaseProgram(p.Name, ct => p.RunAsync(arrangement.SchedulerFor(i), ct))).ToArray();
            phase = await HarnessThread.RunAsync(() => CyclicProtocol.RunMultiprogramAsync(
                phasePrograms, TimeSpan.FromSeconds(1.5), TimeProvider.System, TimeSpan.FromSeconds(30))).WaitAsync(TimeSpan.FromSeconds(60));
            stats = arrangement.Snapshot();
        }

        Assert.Equal(2, stats.Count);
        Assert.All(Enumerable.Range(0, 2), i => Assert.NotEmpty(phase.RecordedDurations(i)));
        bool shared = name is BuiltInSchemes.TplDefaultName or BuiltInSchemes.SharedName;
        Assert.Equal(shared ? 1 : 2, stats.Select(s => s.SchedulerId).Distinct().Count());
        switch (name)
        {
            case BuiltInSchemes.TplDefaultName:
                Assert.All(stats, s => Assert.False(s.Pinned));
                break;
            case BuiltInSchemes.OversubscribedFreeName:
                Assert.All(stats, s => Assert.Equal(processors.Count, s.Workers));
                Assert.All(stats, s => Assert.False(s.Pinned));
                break;
            case BuiltInSchemes.OversubscribedPinnedName:
            case BuiltInSchemes.SharedName:
                Assert.All(stats, s => Assert.Equal(processors.Count, s.Workers));
                Assert.All(stats, s => Assert.True(s.Pinned));
                Assert.All(stats, s => Assert.Equal(processors, s.Processors!));
                break;
            default:
                // A partitioned pool: separate per-program schedulers whose workers together never exceed the cores.
                Assert.True(stats.Sum(s => s.Workers ?? 0) <= processors.Count);
                break;
        }
    }
}
