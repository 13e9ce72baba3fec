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
        Schemes = SimulationSchemes.Names,
        Seed = seed,
        DurationNs = 400_000_000,
        SpRuns = 3,
        Parameters = new SimulationParameters { QuantumNs = 1_000_000 },
    };

    private static string Json(SimulationRequest request) =>
        SimulationReport.ToJson([new NamedResult("w", CyclicSimulator.Run(request))], new Dictionary<string, string> { ["seed"] = "x" });

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
    public void Json_HasTheHarnessFields()
    {
        using var doc = System.Text.Json.JsonDocument.Parse(Json(Request(3)));
        var result = doc.RootElement.GetProperty("results")[0];
        foreach (var scheme in result.GetProperty("schemes").EnumerateArray())
        {
            foreach (string field in new[] { "scheme", "antt", "anttCi99", "mntt", "stp", "programs" })
            {
                Assert.True(scheme.TryGetProperty(field, out _), field);
            }

            foreach (var program in scheme.GetProperty("programs").EnumerateArray())
            {
                foreach (string field in new[] { "program", "csp", "cspCi99", "cmp", "cmpCi99", "runs", "ntt", "nttCi99", "np", "npCi99" })
                {
                    Assert.True(program.TryGetProperty(field, out _), field);
                }

                Assert.True(program.GetProperty("runs").GetInt32() > 0);
                Assert.True(program.GetProperty("ntt").GetDouble() > 0);
            }
        }
    }
}
