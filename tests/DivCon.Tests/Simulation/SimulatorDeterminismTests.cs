using System.Text.Json;
using DivCon.Simulation;

namespace DivCon.Tests.Simulation;

/// <summary>Must-show 1: the same inputs and seed give byte-identical JSON.</summary>
public sealed class SimulatorDeterminismTests
{
    private static SimulationRequest Request(ulong seed) => new()
    {
        Cores = 6,
        Programs =
        [
            SimModels.Sortlike("quick", 2_000_000, 30_000_000, imbalance: new ImbalanceModel(0.3, 0.7)),
            SimModels.Parallel("wide", 20_000_000),
        ],
        Schemes = SchemeCatalog.Simulated.Select(s => s.Name).ToArray(),
        Seed = seed,
        DurationNs = 400_000_000,
        SpRuns = 3,
        Parameters = new SimulationParameters { QuantumNs = 1_000_000 },
    };

    private static string Json(SimulationRequest request) => Json(CyclicSimulator.Run(request, "w"), request);

    private static string Json(SimulationResult result, SimulationRequest request) => System.Text.Json.JsonSerializer.Serialize(
        new SimulationFile(new Dictionary<string, string> { ["seed"] = "x" }, request.Parameters, [result]), SimulationJsonContext.Files.SimulationFile);

    [Fact]
    public void SameRequestAndSeed_GiveByteIdenticalJson()
    {
        string first = Json(Request(11));
        string second = Json(Request(11));

        Assert.Equal(first, second);
        Assert.Contains("\"antt\"", first, StringComparison.Ordinal);
    }

    [Fact]
    public void AnotherSeed_GivesOtherTreesAndVictims()
    {
        Assert.NotEqual(Json(Request(11)), Json(Request(12)));
    }

    [Fact]
    public void Json_HasTheHarnessCyclicShape()
    {
        using var doc = System.Text.Json.JsonDocument.Parse(Json(Request(3)));
        var result = doc.RootElement.GetProperty("results")[0];
        foreach (var scheme in result.GetProperty("schemes").EnumerateArray())
        {
            Assert.False(string.IsNullOrEmpty(scheme.GetProperty("scheme").GetString()));
            foreach (string metric in new[] { "antt", "mntt", "stp" })
            {
                var m = scheme.GetProperty(metric);
                Assert.True(m.GetProperty("mean").GetDouble() > 0, metric);
                Assert.Equal(System.Text.Json.JsonValueKind.Null, m.GetProperty("ci99").ValueKind); // one repetition
                Assert.Equal(1, m.GetProperty("n").GetInt32());
            }

            foreach (var program in scheme.GetProperty("programs").EnumerateArray())
            {
                Assert.False(string.IsNullOrEmpty(program.GetProperty("program").GetString()));
                Assert.True(program.GetProperty("csp").GetProperty("mean").GetDouble() > 0);
                Assert.True(program.GetProperty("cmp").GetProperty("mean").GetDouble() > 0);
                int runs = program.GetProperty("runs").GetInt32();
                Assert.True(runs > 0);
                Assert.InRange(program.GetProperty("discarded").GetInt32(), 0, 1);
                var ntt = program.GetProperty("ntt");
                Assert.Equal(runs, ntt.GetProperty("n").GetInt32());
                if (runs >= 2)
                {
                    Assert.Equal(JsonValueKind.Object, ntt.GetProperty("ci99").ValueKind);
                }

                Assert.Equal(1 / ntt.GetProperty("mean").GetDouble(), program.GetProperty("np").GetProperty("mean").GetDouble(), 12);
            }
        }
    }

    [Fact]
    public void Repetitions_GiveSchemeLevelIntervalsAndPairedComparisons()
    {
        SimulationRequest request = Request(5) with { Schemes = [SchemeCatalog.Shared, SchemeCatalog.OversubscribedFree], Repeat = 3 };

        SimulationResult result = CyclicSimulator.Run(request);

        Assert.All(result.Schemes, s => Assert.Equal([1, 2, 3], s.Repetitions.Select(r => r.Repetition)));
        // The scheme's ANTT is the mean of ratio-of-means NTTs over the repetitions: within the repetitions' own range.
        Assert.All(result.Schemes, s => Assert.InRange(s.Antt!.Mean, s.Repetitions.Min(r => r.Antt!.Value) - 1e-9, s.Repetitions.Max(r => r.Antt!.Value) + 1e-9));
        // Each repetition has its own seed: other quicksort trees, so other values.
        Assert.All(result.Schemes, s => Assert.True(s.Repetitions.Select(r => r.Antt).Distinct().Count() > 1));
        Assert.Equal(3 * request.SpRuns, result.Isolated[0].CspRunsNs.Count);
        Assert.Equal(2, result.Comparisons.Count); // one pair, ANTT and STP, paired by seed, Holm over both
        Assert.All(result.Comparisons, c => Assert.NotNull(c.HolmP));
        Assert.All(result.Comparisons, c => Assert.Equal(3, c.Test.Pairs));

        using var doc = System.Text.Json.JsonDocument.Parse(Json(result, request));
        var scheme = doc.RootElement.GetProperty("results")[0].GetProperty("schemes")[0];
        Assert.True(scheme.GetProperty("antt").GetProperty("ci99").GetProperty("upper").GetDouble() > scheme.GetProperty("antt").GetProperty("ci99").GetProperty("lower").GetDouble());
        Assert.Equal(3, scheme.GetProperty("repetitions").GetArrayLength());
    }

    [Fact]
    public void OneRepetition_ComparisonsSayNotEnoughInvocations()
    {
        SimulationResult result = CyclicSimulator.Run(Request(5) with { Schemes = [SchemeCatalog.Shared, SchemeCatalog.OversubscribedFree] });

        Assert.All(result.Comparisons, c => Assert.Equal(PairedRatio.NotEnoughPairs, c.Verdict));
    }
}
