using DivCon.Simulation;
using DivCon.Simulation.Engine;
using DivCon.Skeletons;

namespace DivCon.Tests.Simulation;

public sealed class ProgramModelTests
{
    [Theory]
    [InlineData(2, 1, 2)]   // 4 muscles: 2^2
    [InlineData(2, 64, 8)]  // 256: 2^8
    [InlineData(2, 3, 4)]   // 12: the next power of 2 is 16 = 2^4
    [InlineData(7, 64, 3)]  // 256: 7^3 = 343 (Strassen's rule)
    [InlineData(7, 2, 2)]   // 8: 7^2 = 49
    public void SplitDepth_FollowsTheAutomaticGranularity(int b, int cores, int expected)
    {
        ProgramModel m = SimModels.Parallel("p", 1000);
        var model = new ProgramModel
        {
            Name = m.Name,
            Source = m.Source,
            BranchingFactor = b,
            ProblemSize = m.ProblemSize,
            WorkExponent = 1,
            Levels = m.Levels,
        };

        Assert.Equal(expected, model.SplitDepth(cores));
    }

    [Fact]
    public void Shape_AtTheProfiledDepth_ReproducesTheProfile()
    {
        // Six split levels: 2^6 = 64 leaves = 4 muscles × 16 cores.
        ProgramModel model = SimModels.Sortlike("s", levelNs: 1_000_000, executeNs: 64_000_000, levels: 6);
        var shape = new TaskTreeShape(model, cores: 16);

        Assert.Equal(6, shape.Depth);
        Assert.Equal(64_000_000, shape.ExecuteNs);
        Assert.Equal(500_000 / 4, shape.SplitCost(3, 0.25));      // level 3 has 4 nodes sharing 0.5 ms of split
        Assert.Equal(1_000_000, shape.ExecuteCost(1.0 / 64));     // each of 64 leaves does 1/64 of the execute time
    }

    [Fact]
    public void Shape_DeeperThanTheProfile_TakesTheExtraLevelsOffTheLeaves()
    {
        ProgramModel model = SimModels.Sortlike("s", levelNs: 1_000_000, executeNs: 64_000_000, levels: 6);
        var shape = new TaskTreeShape(model, cores: 64); // depth 8: two more levels of 1 ms each (growth 1)

        Assert.Equal(8, shape.Depth);
        Assert.Equal(62_000_000, shape.ExecuteNs);
        Assert.Equal(500_000, shape.SplitCost(8, 1.0));
    }

    [Fact]
    public void Shape_ShallowerThanTheProfile_GivesTheMissingLevelsToTheLeaves()
    {
        ProgramModel model = SimModels.Sortlike("s", levelNs: 1_000_000, executeNs: 64_000_000, levels: 6);
        var shape = new TaskTreeShape(model, cores: 1); // depth 2

        Assert.Equal(2, shape.Depth);
        Assert.Equal(68_000_000, shape.ExecuteNs);
    }

    [Fact]
    public void ScaledTo_MultipliesEveryTimeByTheGrowthLaw()
    {
        ProgramModel model = SimModels.Sortlike("s", levelNs: 1_000_000, executeNs: 64_000_000, levels: 2);
        ProgramModel doubled = model.ScaledTo(model.ProblemSize * 2);

        double factor = 2 * Math.Log(model.ProblemSize * 2.0) / Math.Log(model.ProblemSize); // n log n
        Assert.Equal(model.TotalWorkNs * factor, doubled.TotalWorkNs, 6);
        Assert.Equal(model.ProblemSize * 2, doubled.ProblemSize);
    }

    // Loads a model file holding json, as ModelStore.Load reads a models folder.
    private static ProgramModel FromJson(string json)
    {
        string folder = Directory.CreateTempSubdirectory("divcon-model-").FullName;
        try
        {
            File.WriteAllText(Path.Combine(folder, "m.json"), json);
            return ModelStore.Load(folder, "m");
        }
        finally
        {
            Directory.Delete(folder, recursive: true);
        }
    }

    [Fact]
    public void Json_RoundTrips_AndInvalidModelsAreRejectedWithReasons()
    {
        ProgramModel model = SimModels.Sortlike("s", 1_000_000, 64_000_000, imbalance: new ImbalanceModel(0.4, 0.6));
        string json = ModelStore.ToJson(model);
        ProgramModel back = FromJson(json);

        Assert.Equal(json, ModelStore.ToJson(back));
        Assert.Contains("\"branchingFactor\": 2", json, StringComparison.Ordinal);

        string broken = json.Replace("\"branchingFactor\": 2", "\"branchingFactor\": 1", StringComparison.Ordinal);
        var e = Assert.Throws<InvalidDataException>(() => FromJson(broken));
        Assert.Contains("branchingFactor must be at least 2", e.Message, StringComparison.Ordinal);
        Assert.Throws<InvalidDataException>(() => FromJson("{ not json"));
    }

    [Fact]
    public void DefaultModels_ExistForTheFiveSamples_AndAreValid()
    {
        Assert.Equal(["mergesort", "montecarlopi", "quicksort", "strassen", "sumofsquares"], ModelStore.DefaultNames);
        foreach (string name in ModelStore.DefaultNames)
        {
            ProgramModel model = ModelStore.LoadDefault(name);
            Assert.Equal(name, model.Name);
            Assert.Empty(model.Validate());
            Assert.False(string.IsNullOrWhiteSpace(model.Source));
        }
    }

    [Fact]
    public void Calibrator_TurnsAPhaseProfileIntoPerRunLevelCosts()
    {
        // Two runs of a binary program: level 1 split 4 ms + merge 6 ms, level 2 split 2 ms + merge 3 ms in total,
        // level 3 execute 40 ms in total; a whole run took 30 ms.
        PhaseLevelStatistics[] profile =
        [
            new(1, 2, TimeSpan.FromMilliseconds(4), 0, TimeSpan.Zero, 2, TimeSpan.FromMilliseconds(6)),
            new(2, 4, TimeSpan.FromMilliseconds(2), 0, TimeSpan.Zero, 4, TimeSpan.FromMilliseconds(3)),
            new(3, 0, TimeSpan.Zero, 8, TimeSpan.FromMilliseconds(40), 0, TimeSpan.Zero),
        ];

        ProgramModel model = ModelCalibrator.Calibrate(
            "x", 2, 1000, profile, runs: 2, wholeRunNs: 30_000_000, new ModelCalibrator.Growth(1, false, null), "test");

        Assert.Equal([1L, 2L, 0L], model.Levels.Select(l => l.SplitCount));
        Assert.Equal(2_000_000, model.Levels[0].SplitNs);
        Assert.Equal(3_000_000, model.Levels[0].MergeNs);
        Assert.Equal(20_000_000, model.Levels[2].ExecuteNs);
        Assert.Equal(0.5, model.LevelGrowth);                          // (1 + 1.5) / (2 + 3)
        Assert.Equal(30_000_000 - 27_500_000, model.OutsideMusclesNs);  // whole run − muscles
        Assert.Equal(0, model.SequentialNs);
        Assert.Empty(model.Validate());
    }
}
