using DivCon.Metrics.Factored;
using DivCon.Metrics.Results;
using DivCon.Metrics.Schemes;
using DivCon.Simulation;
using DivCon.Simulation.Validation;

namespace DivCon.Tests.Simulation;

/// <summary>The comparison of <c>simulate validate</c> and the thesis table of <c>simulate thesis</c> (pure, deterministic).</summary>
public sealed class SimulationValidationTests
{
    private static readonly ProgramModel A = SimModels.Parallel("a", 40_000_000).Calibrated(1, 0.6, 1, "test a");
    private static readonly ProgramModel B = SimModels.Sortlike("b", 2_000_000, 30_000_000).Calibrated(1, 0.2, 1, "test b");
    private static readonly Dictionary<string, ProgramModel> Models = new() { ["a"] = A, ["b"] = B };
    private static readonly MachineModel Machine = new() { Source = "test", MemoryContention = 0.5 };
    private static readonly string[] Schemes = [SchemeCatalog.Shared, SchemeCatalog.DynamicPartitioned];

    internal static ValidationSettings Settings(int cores = 2) =>
        new("small", cores, 2, 1, 0.5, 2, 3, Schemes, new SimulationParameters { MemoryContention = 0.5 });

    // "Measurements" that are the simulator's own output on the same configuration: every error must then be 0.
    internal static (IReadOnlyList<FactoredProgramResult> Isolated, IReadOnlyList<MeasuredWorkload> Cyclic) SimulatedAsMeasured(ValidationSettings s)
    {
        var isolated = new[] { A, B }.Select(m => IsolatedSimulation.Factored(m, Enumerable.Range(1, s.Cores).ToArray(), s.Cores, s.Parameters, (ulong)s.Seed, s.Runs)).ToArray();
        SimulationResult run = CyclicSimulator.Run(new SimulationRequest
        {
            Cores = s.Cores,
            Programs = [A, B],
            Schemes = Schemes,
            Seed = (ulong)s.Seed,
            DurationNs = (long)(s.DurationSeconds * 1e9),
            SpRuns = s.SpRuns,
            Parameters = s.Parameters,
        }, "pair");
        return (isolated, [new MeasuredWorkload("pair", ["a", "b"], run.Schemes)]);
    }

    private static ValidationFile Compare(ValidationSettings s, IReadOnlyList<FactoredProgramResult> isolated, IReadOnlyList<MeasuredWorkload> cyclic) =>
        SimulationValidation.Compare(new ValidationMeasurements(s, isolated, cyclic, DateTimeOffset.UnixEpoch, 1, MachineInfo.Capture()), Machine, Models);

    [Fact]
    public void Compare_AgainstItsOwnOutput_HasNoError_AndMeetsEveryTarget()
    {
        ValidationSettings s = Settings();
        var (isolated, cyclic) = SimulatedAsMeasured(s);

        ValidationFile file = Compare(s, isolated, cyclic);

        Assert.Equal(4, file.Isolated.Count);                                  // 2 programs × P = 1, 2
        Assert.All(file.Isolated, r => Assert.Equal(0, r.RelativeError, 12));
        Assert.All(file.Isolated, r => Assert.Equal(SimulationValidation.IsolatedTarget, r.Target));
        Assert.Equal(2 * (2 + 2), file.Cyclic.Count);                          // per scheme: 2 NTTs, ANTT, STP
        Assert.All(file.Cyclic, r => Assert.Equal(0, r.RelativeError!.Value, 12));
        Assert.All(file.Cyclic.Where(r => r.Metric != "stp"), r => Assert.True(r.Met));
        Assert.All(file.Cyclic.Where(r => r.Metric == "stp"), r => Assert.Null(r.Target));
        Assert.Equal(["a", "b"], file.Models.Keys);
        Assert.Contains("Targets met: isolated 4/4, cyclic 6/6.", ValidationReport.Markdown(file), StringComparison.Ordinal);
    }

    [Fact]
    public void Compare_ReportsEachMissWithItsError_AndTargetsOnlyWhereTheIssueSetsThem()
    {
        ValidationSettings s = Settings(cores: 3);
        var (isolated, cyclic) = SimulatedAsMeasured(s);
        // Measured T_1 of 'a' 25 % longer than simulated: error −20 %; measured ANTT of shared 10 % higher: −1/11.
        FactoredProgramResult slower = FactoredAnalysis.Analyze("a", isolated[0].Samples with
        {
            Parallel = isolated[0].Samples.Parallel.ToDictionary(kv => kv.Key,
                kv => (IReadOnlyList<ParallelRunSample>)kv.Value.Select(r => kv.Key == 1 ? r with { Seconds = r.Seconds * 1.25 } : r).ToArray()),
        });
        MeasuredWorkload w = cyclic[0] with
        {
            Schemes = cyclic[0].Schemes.Select(x => x.Scheme == SchemeCatalog.Shared ? x with { Antt = x.Antt! with { Mean = x.Antt.Mean * 1.1 } } : x).ToArray(),
        };

        ValidationFile file = Compare(s, [slower, isolated[1]], [w]);

        IsolatedComparison t1 = file.Isolated.Single(r => r.Program == "a" && r.P == 1);
        Assert.Equal(-0.2, t1.RelativeError, 9);
        Assert.False(t1.Met);
        Assert.Null(file.Isolated.Single(r => r.Program == "a" && r.P == 3).Target);   // no target beyond T_2
        CyclicComparison antt = file.Cyclic.Single(r => r.Scheme == SchemeCatalog.Shared && r.Metric == "antt");
        Assert.Equal(-1 / 11.0, antt.RelativeError!.Value, 9);
        Assert.Null(antt.Target);                                                        // cyclic targets are for 2 cores
        string markdown = ValidationReport.Markdown(file);
        Assert.Contains("**-20.0 %**", markdown, StringComparison.Ordinal);
        Assert.Contains("-9.1 %", markdown, StringComparison.Ordinal);
        Assert.Equal(1 + file.Isolated.Count + file.Cyclic.Count, ValidationReport.Csv(file).ToString().Split('\n', StringSplitOptions.RemoveEmptyEntries).Length);
    }

    [Fact]
    public void ValidationFile_RoundTripsThroughItsJson()
    {
        ValidationSettings s = Settings();
        var (isolated, cyclic) = SimulatedAsMeasured(s);
        ValidationFile file = Compare(s, isolated, cyclic);

        byte[] json = ResultJson.ToUtf8(file, SimulationJsonContext.Files.ValidationFile);
        ValidationFile back = ResultJson.Read(System.Text.Encoding.UTF8.GetString(json), SimulationJsonContext.Files.ValidationFile, ValidationFile.FileKind);

        Assert.Equal(json, ResultJson.ToUtf8(back, SimulationJsonContext.Files.ValidationFile));
        Assert.Throws<ResultFileException>(() => ResultJson.Read("{\"kind\":\"simulate\",\"schemaVersion\":2}", SimulationJsonContext.Files.ValidationFile, ValidationFile.FileKind));
    }

    [Fact]
    public void Compare_RefusesAProgramWithoutAModel()
    {
        ValidationSettings s = Settings();
        var (isolated, _) = SimulatedAsMeasured(s);

        var e = Assert.Throws<ArgumentException>(() => SimulationValidation.Compare(new ValidationMeasurements(s, isolated, [], DateTimeOffset.UnixEpoch, 1, MachineInfo.Capture()),
            Machine, new Dictionary<string, ProgramModel> { ["a"] = A }));
        Assert.Contains("b", e.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void ThesisClaims_AreEveryStatedSpeedup_WithItsSection()
    {
        var claims = ThesisSpeedups.Claims.Select(c => (c.Section, c.Program, c.Cores, c.Speedup)).ToArray();

        Assert.Equal(12, claims.Length);
        Assert.Contains(("§7.2", "montecarlopi", 64, 0.90 * 64), claims);
        Assert.Contains(("§7.2", "sumofsquares", 64, 0.89 * 64), claims);
        Assert.Contains(("§7.2", "quicksort", 16, 8.8), claims);
        Assert.Contains(("§7.2", "mergesort", 16, 8.3), claims);
        Assert.Contains(("§7.2", "quicksort", 8, 6.0), claims);
        Assert.Contains(("§7.2.1", "sumofsquares", 16, 14.9), claims);
        Assert.Equal([23.0, 13, 12], claims.Where(c => c.Section == "§5.3.2").Select(c => c.Speedup));
        Assert.All(ThesisSpeedups.Claims, c => Assert.False(string.IsNullOrWhiteSpace(c.Quote)));
    }

    [Fact]
    public void ThesisComparison_WithTheShippedModels_IsDeterministic_AndShowsWhatContentionCosts()
    {
        var models = ModelStore.DefaultNames.ToDictionary(n => n, n => ModelStore.LoadDefault(n));
        var parameters = new SimulationParameters { MemoryContention = ModelStore.LoadDefaultMachine().MemoryContention };

        ThesisComparisonFile first = ThesisSpeedups.Compare(models, parameters, runs: 2, "default");
        ThesisComparisonFile second = ThesisSpeedups.Compare(models, parameters, runs: 2, "default");

        Assert.Equal(ResultJson.ToUtf8(first, SimulationJsonContext.Files.ThesisComparisonFile), ResultJson.ToUtf8(second, SimulationJsonContext.Files.ThesisComparisonFile));
        Assert.Equal(ThesisSpeedups.Claims.Count, first.Rows.Count);
        Assert.All(first.Rows, r => Assert.Equal((r.Simulated - r.Claim.Speedup) / r.Claim.Speedup, r.RelativeError, 12));
        Assert.All(first.Rows, r => Assert.Equal(Math.Abs(r.RelativeError) <= ThesisSpeedups.Target, r.Met));
        // Sum of squares is the most memory-bound sample: contention costs it speedup; Monte Carlo π barely.
        ThesisComparison sos = first.Rows.Single(r => r.Claim.Program == "sumofsquares" && r.Claim.Cores == 64);
        Assert.True(sos.Simulated < sos.WithoutContention, $"{sos.Simulated} vs {sos.WithoutContention}");
        Assert.Equal(12, ThesisSpeedups.Markdown(first).Split('\n').Count(l => l.StartsWith("| §", StringComparison.Ordinal)));
        Assert.Throws<ArgumentException>(() => ThesisSpeedups.Compare(new Dictionary<string, ProgramModel>(), parameters, 1, "none"));
    }
}
