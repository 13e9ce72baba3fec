using DivCon.Samples;
using DivCon.Skeletons;

namespace DivCon.Tests.Samples;

public sealed class SampleCatalogTests
{
    [Fact]
    public void Names_AreTheFivePrograms_AndCreateGivesEach()
    {
        Assert.Equal(["sumofsquares", "montecarlopi", "strassen", "quicksort", "mergesort"], SampleCatalog.Names);
        foreach (string name in SampleCatalog.Names)
        {
            IDivConSample program = SampleCatalog.Create(name, ProblemSize.Small);
            Assert.Equal(name, program.Name);
            Assert.Equal(ProblemSize.Small, program.Size);
        }

        Assert.IsType<QuickSort>(SampleCatalog.Create("QuickSort", ProblemSize.Medium));
    }

    [Fact]
    public void UnknownName_ThrowsListingTheValidNames()
    {
        ArgumentException e = Assert.Throws<ArgumentException>(() => SampleCatalog.Create("bubblesort", ProblemSize.Small));
        Assert.Equal("name", e.ParamName);
        foreach (string name in SampleCatalog.Names)
        {
            Assert.Contains(name, e.Message);
        }

        Assert.Throws<ArgumentNullException>(() => SampleCatalog.Create(null!, ProblemSize.Small));
        Assert.Throws<ArgumentOutOfRangeException>(() => SampleCatalog.Create("quicksort", (ProblemSize)3));
    }

    [Fact]
    public void ThesisSizes_AreConstructibleWithoutAllocatingTheirData()
    {
        long before = GC.GetAllocatedBytesForCurrentThread();
        var programs = SampleCatalog.Names.Select(name => SampleCatalog.Create(name, ProblemSize.Thesis)).ToList();
        long allocated = GC.GetAllocatedBytesForCurrentThread() - before;

        Assert.True(allocated < 1 << 20, $"{allocated} bytes allocated by constructing the thesis-size catalogue");
        Assert.All(programs.Where(p => p.Name != "montecarlopi"), p => Assert.False(p.IsInitialized));
        Assert.Equal(
            [1L << 27, 1L << 30, 1536L * 1536, 1L << 26, 1L << 26],
            programs.Select(p => p.ProblemSize));
    }

    [Fact]
    public void Settings_AreValidated_EveryProblemListed()
    {
        var settings = new SampleSettings { Cores = 0, MusclesPerCore = 0, Granularity = 0, SequentialElision = true };

        IReadOnlyList<string> problems = settings.Validate();

        Assert.Equal(4, problems.Count);
        ArgumentException e = Assert.Throws<ArgumentException>(() => SampleCatalog.Create("quicksort", ProblemSize.Small, settings: settings));
        Assert.Contains("Cores", e.Message);
        Assert.Contains("MusclesPerCore", e.Message);
        Assert.Empty(new SampleSettings().Validate());
    }

    [Fact]
    public void Settings_CoresAndMusclesPerCore_SetTheAutomaticGranularity()
    {
        IDivConSample program = SampleCatalog.Create("sumofsquares", ProblemSize.Small, settings: new SampleSettings { Cores = 2, MusclesPerCore = 16 });

        Assert.Equal(program.ProblemSize / 32, program.Granularity);
        Assert.False(program.IsSequentialElision);
        Assert.Equal(DivConExecution.Asynchronous, program.Execution);
    }
}
