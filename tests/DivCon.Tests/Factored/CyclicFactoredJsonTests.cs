using System.Text.Json;
using DivCon.Harness.Cyclic;
using DivCon.Harness.Factored;
using DivCon.Harness.Reporting;
using DivCon.Harness.Schemes;
using DivCon.Tests.Harness;

namespace DivCon.Tests.Factored;

public sealed class CyclicFactoredJsonTests
{
    private static CyclicResult Result(Func<ProgramResult, ProgramResult> fill)
    {
        CyclicResult basic = CyclicFixtures.Result(["a", "b"], ["x"],
            [CyclicFixtures.Invocation(1, ["a", "b"], [[1.0, 1.1], [2.0, 2.2]], [("x", [new ProgramRuns([2.0, 2.0], 0), new ProgramRuns([5.0], 1)])])]);
        return basic with { Schemes = basic.Schemes.Select(s => s with { Programs = s.Programs.Select(fill).ToArray() }).ToArray() };
    }

    private static JsonElement[] Programs(CyclicResult result, out JsonDocument doc)
    {
        doc = JsonDocument.Parse(ResultJson.ToUtf8(result, HarnessJsonContext.Files.CyclicResult));
        return doc.RootElement.GetProperty("schemes")[0].GetProperty("programs").EnumerateArray().ToArray();
    }

    [Fact]
    public void SchemeWithoutAccounting_WritesFactoredNull_WithTheReason()
    {
        JsonElement[] programs = Programs(Result(p => p with { Factored = new MultiprogramFactored(null, MultiprogramFactored.NoAccountingReason, null) }), out JsonDocument doc);
        using (doc)
        {
            Assert.All(programs, p =>
            {
                Assert.Equal(JsonValueKind.Null, p.GetProperty("factored").GetProperty("point").ValueKind);
                Assert.Contains("no per-program core-time", p.GetProperty("factored").GetProperty("reason").GetString());
            });
        }
    }

    [Fact]
    public void SchemeWithAccounting_WritesTheDecomposition_WithTheSameSpeedupNamesAsFactoredJson()
    {
        // a: 10 s phase, 15 core-seconds held, 3 idle, mean run 2 s (its recorded runs), T_s 2.4, T_1 2.7.
        CyclicResult result = Result(p => p.Program == "a"
            ? p with { Factored = MultiprogramFactored.Compute(new ProgramCoreAccounting("a", 10, 15, 3, p.Cmp!.Mean, 2.4, 2.7, null)) }
            : p with { Factored = MultiprogramFactored.Compute(new ProgramCoreAccounting("b", 10, 5, 1, p.Cmp!.Mean, 4.0, null, null)) });

        JsonElement[] programs = Programs(result, out JsonDocument doc);
        using (doc)
        {
            JsonElement a = programs[0].GetProperty("factored").GetProperty("point");
            Assert.Equal(JsonValueKind.Null, programs[0].GetProperty("factored").GetProperty("reason").ValueKind);
            Assert.Equal(15, programs[0].GetProperty("factored").GetProperty("accounting").GetProperty("coreSecondsHeld").GetDouble(), 12);
            Assert.Equal(1.5, a.GetProperty("p").GetDouble(), 12);
            Assert.Equal(2.0, a.GetProperty("tp").GetDouble(), 12);
            Assert.Equal(0.6, a.GetProperty("ip").GetDouble(), 12);
            Assert.Equal(-0.3, a.GetProperty("fp").GetDouble(), 12);
            JsonElement speedups = a.GetProperty("speedups");
            Assert.Equal(FactoredSpeedups.Names, speedups.EnumerateObject().Select(p => p.Name));
            Assert.Equal(3.6 / 3.3, speedups.GetProperty("idleSpecific").GetDouble(), 12);
            Assert.Equal(1.2, speedups.GetProperty("actual").GetDouble(), 12);
            Assert.Equal(JsonValueKind.Null, speedups.GetProperty("elision").ValueKind);

            // b: T_1 not measured → null with that reason, not invented numbers.
            Assert.Equal(JsonValueKind.Null, programs[1].GetProperty("factored").GetProperty("point").ValueKind);
            Assert.Contains("T_1", programs[1].GetProperty("factored").GetProperty("reason").GetString());
        }
    }
}

public sealed class CyclicFactoredAttachTests
{
    private static SchemeResult Scheme(params SchedulerStats[] schedulers)
    {
        var phase = new PhaseResult(["a", "b"], 10,
            [new RunRecord(0, 0, 2, true), new RunRecord(0, 2, 4, true), new RunRecord(1, 0, 5, true), new RunRecord(1, 5, 10, false)]);
        var rep = new RepetitionRuns([[1.0, 1.1], [2.0, 2.2]], new Dictionary<string, IReadOnlyList<ProgramRuns>> { ["x"] = phase.ProgramRuns() });
        var (schemes, _, _) = CyclicAnalysis.Analyze(["a", "b"], [("x", "scheme x")], [rep]);
        return schemes[0] with { Schedulers = schedulers };
    }

    [Fact]
    public void PartitionedScheme_DecomposesFromCoreSecondsAndIdle_OthersGetTheNoAccountingReason()
    {
        SchemeResult scheme = Scheme(
            new("MultiProgramScheduler", 1, 1, true, IdleSeconds: 3, CoreSeconds: 15),
            new("WorkStealingTaskScheduler", 2, 2, false, IdleSeconds: 1));

        SchemeResult attached = CyclicFactored.Attach(scheme, 10, scheme.Schedulers, name => name == "a" ? new IsolatedTimes(2.4, 2.7, null) : new IsolatedTimes(4, 4.5, null));

        FactoredPoint a = Assert.IsType<FactoredPoint>(attached.Programs[0].Factored!.Point);
        Assert.Equal(1.5, a.P, 12);                          // 15 core-seconds over a 10 s window
        Assert.Equal(2.0, a.Tp, 12);                         // a's mean C^MP
        Assert.Equal(0.6, a.Ip, 12);
        Assert.Equal(3.6 / 3.3, a.Speedups.IdleSpecific, 12);
        Assert.Null(attached.Programs[1].Factored!.Point);
        Assert.Equal(MultiprogramFactored.NoAccountingReason, attached.Programs[1].Factored!.Reason);
        Assert.Equal(scheme.Programs.Select(p => p.Ntt), attached.Programs.Select(p => p.Ntt)); // nothing else changes
    }

    [Fact]
    public void MissingIsolatedTimes_GiveAReason_AndNoSchedulerStatsAtAll_GiveTheNoAccountingReason()
    {
        SchemeResult withStats = Scheme(new("MPS", 1, 1, true, IdleSeconds: 1, CoreSeconds: 10), new("MPS", 1, 1, true, IdleSeconds: 1, CoreSeconds: 10));
        SchemeResult attached = CyclicFactored.Attach(withStats, 10, withStats.Schedulers, _ => null);
        Assert.All(attached.Programs, p => Assert.Contains("T_s", p.Factored!.Reason));

        SchemeResult empty = Scheme();
        SchemeResult none = CyclicFactored.Attach(empty, 10, empty.Schedulers, _ => new IsolatedTimes(1, 1, 1));
        Assert.All(none.Programs, p => Assert.Equal(MultiprogramFactored.NoAccountingReason, p.Factored!.Reason));
        Assert.Throws<ArgumentOutOfRangeException>(() => CyclicFactored.Attach(none, 0, none.Schedulers, _ => null));
    }
}
