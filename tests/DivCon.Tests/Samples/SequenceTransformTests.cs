using DivCon.Harness.Factored;
using DivCon.Harness.Programs;
using DivCon.Samples;
using DivCon.Samples.Sequences;
using DivCon.Scheduling;
using DivCon.Skeletons.Sequences;

namespace DivCon.Tests.Samples;

// Issue 10: the memory-bound transform on the sequence skeleton, in its three window modes.
public sealed class SequenceTransformTests
{
    private static readonly TimeSpan Timeout = TimeSpan.FromSeconds(60);
    // 10 007 doubles in blocks of 4: 2 502 blocks, the last one shorter.
    private static readonly SequenceTransformParameters Tiny = new(10_007, 777, 3, BlockLength: 4);

    [Theory]
    [InlineData(WindowMode.None)]
    [InlineData(WindowMode.Static)]
    [InlineData(WindowMode.Sliding)]
    public async Task EveryMode_OnTwoWorkers_EqualsTheSequentialBaseline_RunAfterRun(WindowMode mode)
    {
        var transform = new SequenceTransform(mode, ProblemSize.Small, Tiny, seed: 5, grain: 16, windowSize: 64);
        using var scheduler = new WorkStealingTaskScheduler(new WorkStealingSchedulerOptions { WorkerCount = 2 });

        for (int run = 0; run < 3; run++)
        {
            await transform.RunParallelAsync(scheduler).WaitAsync(Timeout);
            transform.Verify();
        }

        Assert.Equal(mode, transform.Mode);
        Assert.Equal(SequenceTransform.NameOf(mode), transform.Name);
        Assert.Equal(2502, Tiny.Blocks);
        Assert.True(scheduler.GetStatistics().TasksExecuted >= 3 * ((Tiny.Blocks + 15) / 16), "one task per chunk and pass");
    }

    [Fact]
    public async Task Verify_FindsOneWrongElement_AndRequiresAParallelRun()
    {
        var transform = new SequenceTransform(WindowMode.Sliding, ProblemSize.Small, Tiny, grain: 100, windowSize: 300);
        Assert.Throws<InvalidOperationException>(transform.Verify);
        using var scheduler = new WorkStealingTaskScheduler(new WorkStealingSchedulerOptions { WorkerCount = 2 });
        await transform.RunParallelAsync(scheduler).WaitAsync(Timeout);
        transform.Verify();
        await transform.RunParallelAsync(scheduler).WaitAsync(Timeout);

        transform.LastOutput[4321] = BitConverter.Int64BitsToDouble(BitConverter.DoubleToInt64Bits(transform.LastOutput[4321]) + 1);

        var e = Assert.Throws<InvalidOperationException>(transform.Verify);
        Assert.Contains("element 4321", e.Message, StringComparison.Ordinal);
    }

    [Fact]
    public async Task TheResult_IsThePassesOfTheFormula()
    {
        // One pass over four seeded elements with D = 1: out[i] = 0.75·x[i] + 0.25·x[(i + 1) mod 4].
        var transform = new SequenceTransform(WindowMode.None, ProblemSize.Small, new SequenceTransformParameters(4, 1, 1), grain: 1);
        transform.Initialize();
        transform.RunSequential();
        double[] input = new double[4];
        var random = new Random(SampleCatalog.DefaultSeed);
        for (int i = 0; i < 4; i++)
        {
            input[i] = random.NextDouble();
        }

        await transform.RunParallelAsync(TaskScheduler.Default).WaitAsync(Timeout);
        Assert.Equal(Enumerable.Range(0, 4).Select(i => 0.75 * input[i] + 0.25 * input[(i + 1) % 4]), transform.LastOutput);
        transform.Verify();
    }

    [Fact]
    public void Names_ModesAndCreate_AgreeAndRejectUnknownNames()
    {
        Assert.Equal(["transform-none", "transform-static", "transform-sliding"], SequenceTransform.Names);
        Assert.Equal(WindowMode.Static, SequenceTransform.ModeOf("Transform-Static"));
        Assert.Null(SequenceTransform.ModeOf("transform"));
        SequenceTransform sliding = SequenceTransform.Create("transform-sliding", ProblemSize.Small, grain: 512);
        Assert.Equal(SequenceTransformParameters.For(ProblemSize.Small), sliding.Parameters);
        Assert.Equal(512, sliding.Grain);
        Assert.False(sliding.IsInitialized); // Create allocates nothing.
        var e = Assert.Throws<ArgumentException>(() => SequenceTransform.Create("transform-diagonal", ProblemSize.Small));
        Assert.Contains("transform-none, transform-static, transform-sliding", e.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void TheDefaultWindow_ComesFromTheLastLevelCache_AndNoWindowHasNone()
    {
        long cache = SequenceSkeleton.DetectLastLevelCacheBytes();

        var sliding = new SequenceTransform(WindowMode.Sliding, ProblemSize.Small, Tiny, grain: 64);
        var none = new SequenceTransform(WindowMode.None, ProblemSize.Small, Tiny, grain: 64, windowSize: 1000);

        Assert.Equal(SequenceSkeleton.DefaultWindowSize(cache, sliding.BytesPerElement, 64), sliding.WindowSize);
        Assert.Equal(3 * 8 * 4, sliding.BytesPerElement);
        Assert.Equal($"window sliding m = {sliding.WindowSize} blocks, grain 64 blocks, B = 4, n = 10007, D = 777, R = 3", sliding.Describe());
        Assert.Null(none.WindowSize);
        Assert.StartsWith("window none, grain 64 blocks", none.Describe(), StringComparison.Ordinal);
    }

    [Fact]
    public void BadParameters_AreRejected_WithEveryProblemNamed()
    {
        var e = Assert.Throws<ArgumentException>(() =>
            new SequenceTransform(WindowMode.Static, ProblemSize.Small, new SequenceTransformParameters(100, 100, 0, 0), grain: 0, windowSize: -1));

        Assert.Contains("Distance must be between 0 and Length − 1 (99); got 100.", e.Message, StringComparison.Ordinal);
        Assert.Contains("Passes must be at least 1; got 0.", e.Message, StringComparison.Ordinal);
        Assert.Contains("BlockLength must be at least 1; got 0.", e.Message, StringComparison.Ordinal);
        Assert.Contains("Grain must be at least 1; got 0.", e.Message, StringComparison.Ordinal);
        Assert.Contains("window size must be at least the grain (0); got -1.", e.Message, StringComparison.Ordinal);
        Assert.Throws<ArgumentException>(() => new SequenceTransform(WindowMode.Sliding, ProblemSize.Small, Tiny, grain: 64, windowSize: 63));
    }

    [Fact]
    public void AsAWorkloadProgram_ItsInputIsMadeByInitialize_NotInsideATimedRun_AndItHasNoElision()
    {
        var transform = new SequenceTransform(WindowMode.Static, ProblemSize.Small, Tiny, grain: 64, windowSize: 128);
        IWorkloadProgram program = DivCon.Cli.Programs.SampleWorkload.Of(transform);

        program.Initialize();

        Assert.True(transform.IsInitialized);
        Assert.IsNotAssignableFrom<ISkeletonProgram>(program);
        Assert.Equal("transform-static", program.Name);
    }
}
