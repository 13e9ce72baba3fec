using System.CommandLine;
using System.Text.Json;
using DivCon.Cli;
using DivCon.Cli.Commands;
using DivCon.Metrics.Results;
using DivCon.Simulation;
using DivCon.Simulation.Validation;
using DivCon.Tests.Factored;
using DivCon.Tests.Infrastructure;

namespace DivCon.Tests.Simulation;

/// <summary><c>divcon simulate thesis</c>, <c>simulate validate</c> and <c>simulate calibrate</c> end to end.</summary>
[Collection(nameof(FactoredTimingCollection))]
public sealed class SimulateValidationCommandTests : IDisposable
{
    private readonly string _dir = Path.Combine(Path.GetTempPath(), $"divcon-simval-{Guid.NewGuid():N}");

    public void Dispose()
    {
        if (Directory.Exists(_dir))
        {
            Directory.Delete(_dir, recursive: true);
        }
    }

    private static async Task<(int Code, string Output, string Error)> Run(params string[] args)
    {
        var output = new StringWriter();
        var error = new StringWriter();
        int code = await CliApp.RunAsync(args, output, error).WaitAsync(TimeSpan.FromMinutes(3));
        return (code, output.ToString(), error.ToString());
    }

    [Fact]
    public async Task Thesis_WritesJsonAndTable_AndARerunIsByteIdentical()
    {
        string a = Path.Combine(_dir, "a"), b = Path.Combine(_dir, "b");

        var first = await Run("simulate", "thesis", "--runs", "2", "--out", a);
        var second = await Run("simulate", "thesis", "--runs", "2", "--out", b);

        Assert.True(first.Code == 0, first.Error);
        Assert.Equal(0, second.Code);
        Assert.Contains("| §7.2.1 | sumofsquares | 16 | 14.9 |", first.Output, StringComparison.Ordinal);
        foreach (string file in new[] { "thesis.json", "thesis.md" })
        {
            Assert.Equal(File.ReadAllBytes(Path.Combine(a, file)), File.ReadAllBytes(Path.Combine(b, file)));
        }

        using JsonDocument doc = JsonDocument.Parse(File.ReadAllText(Path.Combine(a, "thesis.json")));
        Assert.Equal("thesis", doc.RootElement.GetProperty("kind").GetString());
        Assert.Equal(ThesisSpeedups.Claims.Count, doc.RootElement.GetProperty("rows").GetArrayLength());
    }

    [Fact]
    public async Task Validate_FromEarlierMeasurements_SimulatesAgainWithOtherContention_AndWritesItsFiles()
    {
        // An earlier validate.json whose "measurements" are the simulator's own output with β = 0.5.
        ValidationSettings s = SimulationValidationTests.Settings();
        var (isolated, cyclic) = SimulationValidationTests.SimulatedAsMeasured(s);
        string models = Path.Combine(_dir, "models");
        Directory.CreateDirectory(models);
        foreach (ProgramModel m in new[] { SimModels.Parallel("a", 40_000_000).Calibrated(1, 0.6, 1, "test a"), SimModels.Sortlike("b", 2_000_000, 30_000_000).Calibrated(1, 0.2, 1, "test b") })
        {
            File.WriteAllText(Path.Combine(models, m.Name + ".json"), ModelStore.ToJson(m));
        }

        File.WriteAllText(Path.Combine(models, MachineModel.FileName), ModelStore.MachineToJson(new MachineModel { Source = "test", MemoryContention = 0.5 }));
        ValidationFile earlier = SimulationValidation.Compare(new ValidationMeasurements(s, isolated, cyclic, DateTimeOffset.UnixEpoch, 1, MachineInfo.Capture()),
            ModelStore.ReadMachine(Path.Combine(models, MachineModel.FileName)), new Dictionary<string, ProgramModel>
        {
            ["a"] = ModelStore.Load(models, "a"),
            ["b"] = ModelStore.Load(models, "b"),
        });
        string measured = Path.Combine(_dir, "earlier.json");
        File.WriteAllBytes(measured, ResultJson.ToUtf8(earlier, SimulationJsonContext.Files.ValidationFile));

        var same = await Run("simulate", "validate", "--measured", measured, "--models", models, "--out", Path.Combine(_dir, "same"));
        var free = await Run("simulate", "validate", "--measured", measured, "--models", models, "--memory-contention", "0", "--out", Path.Combine(_dir, "free"));

        Assert.True(same.Code == 0, same.Error);
        Assert.Contains("Targets met: isolated 4/4, cyclic 6/6.", same.Output, StringComparison.Ordinal);
        Assert.True(free.Code == 0, free.Error);
        Assert.DoesNotContain("isolated 4/4, cyclic 6/6", free.Output, StringComparison.Ordinal); // memory is no longer free in the "measurement"
        foreach (string file in new[] { "validate.json", "validate.csv", "validate.md" })
        {
            Assert.True(File.Exists(Path.Combine(_dir, "free", file)), file);
        }

        ValidationFile back = ResultJson.Read(File.ReadAllText(Path.Combine(_dir, "free", "validate.json")), SimulationJsonContext.Files.ValidationFile, ValidationFile.FileKind);
        Assert.Equal(0, back.Settings.Parameters.MemoryContention);
        Assert.Equal(earlier.MeasuredIsolated.Count, back.MeasuredIsolated.Count);
    }

    [Fact]
    public async Task Validate_FromAFactoredJson_ComparesTheIsolatedTimes()
    {
        // A factored.json whose times are the simulator's own for the shipped quicksort model at size small, 2 runs,
        // granularity for 2 cores, seed 5: the comparison must find no error.
        ProgramModel model = ModelStore.LoadDefault("quicksort").ScaledTo(SimulationModels.ProblemSize("quicksort", DivCon.Harness.Programs.WorkloadSize.Small)!.Value);
        var parameters = new SimulationParameters { MemoryContention = ModelStore.LoadDefaultMachine().MemoryContention };
        var measured = new DivCon.Harness.Factored.FactoredResult("small", 5, new DivCon.Harness.Factored.FactoredSettings([1, 2], 2, 1),
            [IsolatedSimulation.Factored(model, [1, 2], 2, parameters, 5, 2)])
        {
            StartedUtc = DateTimeOffset.UnixEpoch,
            ElapsedSeconds = 1,
            Machine = MachineInfo.Capture(),
        };
        string file = Path.Combine(_dir, "factored.json");
        Directory.CreateDirectory(_dir);
        File.WriteAllBytes(file, ResultJson.ToUtf8(measured, DivCon.Harness.Reporting.HarnessJsonContext.Files.FactoredResult));

        var first = await Run("simulate", "validate", "--measured", file, "--out", Path.Combine(_dir, "f1"));
        var second = await Run("simulate", "validate", "--measured", file, "--out", Path.Combine(_dir, "f2"));

        Assert.True(first.Code == 0, first.Error);
        Assert.Contains("| quicksort | 2 |", first.Output, StringComparison.Ordinal);
        Assert.Contains("Targets met: isolated 2/2, cyclic 0/0.", first.Output, StringComparison.Ordinal);
        Assert.Equal(File.ReadAllBytes(Path.Combine(_dir, "f1", "validate.json")), File.ReadAllBytes(Path.Combine(_dir, "f2", "validate.json")));
    }

    [Fact]
    public async Task Validate_ShortRealRun_MeasuresAndSimulatesTheSameConfiguration()
    {
        var (code, output, error) = await Run("simulate", "validate", "--programs", "quicksort", "--workloads", "subset", "--schemes", "shared",
            "--size", "small", "--runs", "1", "--warmup", "0", "--duration", "500ms", "--sp-runs", "2", "--cores", "1", "--out", Path.Combine(_dir, "real"));

        Assert.True(code == 0, error);
        Assert.Contains("| quicksort | 1 |", output, StringComparison.Ordinal);
        Assert.Contains("| shared | ANTT |", output, StringComparison.Ordinal);
        ValidationFile file = ResultJson.Read(File.ReadAllText(Path.Combine(_dir, "real", "validate.json")), SimulationJsonContext.Files.ValidationFile, ValidationFile.FileKind);
        Assert.Equal(1, file.Settings.Cores);
        Assert.Single(file.MeasuredIsolated);
        Assert.Equal(["strassen", "quicksort", "mergesort"], file.MeasuredCyclic.Single().Programs);
        Assert.All(file.Isolated, r => Assert.True(r.MeasuredSeconds > 0 && r.SimulatedSeconds > 0));
    }

    [Fact]
    public async Task Validate_And_Thesis_BadInput_OneLinePerProblem_ExitCode2()
    {
        string outDir = Path.Combine(_dir, "bad");
        var validate = await Run("simulate", "validate", "--workloads", "bogus", "--schemes", "tpl-default", "--memory-contention", "-1",
            "--measured", Path.Combine(_dir, "nosuch.json"), "--out", outDir);
        var thesis = await Run("simulate", "thesis", "--runs", "0", "--models", Path.Combine(_dir, "nomodels"), "--out", outDir);

        Assert.Equal(CliApp.UsageError, validate.Code);
        string[] lines = validate.Error.Split('\n', StringSplitOptions.RemoveEmptyEntries);
        Assert.Contains(lines, l => l.Contains("bogus", StringComparison.Ordinal));
        Assert.Contains(lines, l => l.Contains("tpl-default", StringComparison.Ordinal));
        Assert.Contains(lines, l => l.Contains("--memory-contention", StringComparison.Ordinal));
        Assert.Contains(lines, l => l.Contains("nosuch.json", StringComparison.Ordinal));
        Assert.DoesNotContain("   at ", validate.Error, StringComparison.Ordinal);
        Assert.Equal(CliApp.UsageError, thesis.Code);
        Assert.Contains("--runs", thesis.Error, StringComparison.Ordinal);
        Assert.False(Directory.Exists(outDir));
    }

    [ProcessorFact(2)]
    public async Task Calibrate_WithScriptedMeasurements_FitsEachModelAndWritesTheMachine()
    {
        // Scripted (the programs run for real, so their results can be verified; the times are the script's): T_1 = 1 s, T_2 = 0.5 + 0.1 s with 0.05 s idle, so F_2 / T_1 = 2·0.6 − 0.05 − 1 = 0.15 for every program.
        Command calibrate = SimulateCalibrateCommand.Create(() => new ScriptedMeasurementSource(ts: 0.95, te: 1.0, t1: 1.0, overhead: 0.1, idlePerExtraWorker: 0.05, runPrograms: true));
        string outDir = Path.Combine(_dir, "calibrated");
        var output = new StringWriter();
        var error = new StringWriter();
        ParseResult parse = new RootCommand { calibrate }.Parse(
            ["calibrate", "--programs", "quicksort", "--size", "small", "--profiles", "default", "--max-workers", "2", "--factored-runs", "2", "--out", outDir]);

        int code = await parse.InvokeAsync(new InvocationConfiguration { Output = output, Error = error }).WaitAsync(TimeSpan.FromMinutes(3));

        Assert.True(code == 0, error.ToString());
        MachineModel machine = ModelStore.ReadMachine(Path.Combine(outDir, MachineModel.FileName));
        Assert.Equal(0.15, machine.MemoryContention, 4);
        ProgramModel model = ModelStore.Load(outDir, "quicksort");
        Assert.Equal(1.0, model.FittedTo!.T1Seconds, 9);
        Assert.Equal(0.15, model.FittedTo.SimulatedInflation, 3);
        Assert.True(model.MemoryIntensity > 0);
        Assert.Equal(0.95, model.BaselineRatio!.Value, 4);
        Assert.Equal(1.0, IsolatedSimulation.Factored(model, [1], 2, new SimulationParameters { MemoryContention = machine.MemoryContention }).T1, 3);
        Assert.Contains("quicksort", output.ToString(), StringComparison.Ordinal);
    }

    [Fact]
    public async Task Calibrate_BadInput_OneLinePerProblem_ExitCode2()
    {
        string outDir = Path.Combine(_dir, "bad-calibrate");
        var (code, _, error) = await Run("simulate", "calibrate", "--max-workers", "1", "--profiles", Path.Combine(_dir, "nosuch"),
            "--factored", Path.Combine(_dir, "nosuch.json"), "--machine", Path.Combine(_dir, "nosuch-machine.json"), "--out", outDir);

        Assert.Equal(CliApp.UsageError, code);
        string[] lines = error.Split('\n', StringSplitOptions.RemoveEmptyEntries);
        Assert.Contains(lines, l => l.Contains("--max-workers", StringComparison.Ordinal) || l.Contains("at least 2 processors", StringComparison.Ordinal));
        Assert.Contains(lines, l => l.Contains("--profiles", StringComparison.Ordinal));
        Assert.Contains(lines, l => l.Contains("--factored", StringComparison.Ordinal));
        Assert.Contains(lines, l => l.Contains("--machine", StringComparison.Ordinal));
        Assert.False(Directory.Exists(outDir));
    }
}
