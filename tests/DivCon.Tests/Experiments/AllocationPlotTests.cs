using System.Diagnostics;
using System.Text.Json;
using DivCon.Cli.Commands;
using DivCon.Harness.Plots;
using DivCon.Multiprogramming;
using DivCon.Partitioning;
using DivCon.Reporting.Plotting;

namespace DivCon.Tests.Experiments;

/// <summary>
/// The allocation plot from a real MultiProgramScheduler run: at every moment we sampled, the plotted cores of each
/// program equal what the scheduler reported then; the files land next to each other in the cyclic output path.
/// </summary>
public sealed class AllocationPlotTests : IDisposable
{
    private static readonly TimeSpan Timeout = TimeSpan.FromSeconds(60);
    private readonly string _root = Path.Combine(Path.GetTempPath(), "divcon-alloc-tests", Guid.NewGuid().ToString("N"));

    public void Dispose()
    {
        if (Directory.Exists(_root))
        {
            Directory.Delete(_root, recursive: true);
        }
    }

    private static (SchemeTimeline Timeline, List<(long Timestamp, Dictionary<int, int> Cores)> Samples, int Workers) RealRun()
    {
        using var mps = new MultiProgramScheduler(new MultiProgramSchedulerOptions
        {
            RepartitionInterval = System.Threading.Timeout.InfiniteTimeSpan,
            BestEffortPinning = true,

            // Without lending (the default policy lends): the samples read allocations, which loans do not change.
            Policy = new DivCon.Partitioning.TaskAvailabilityPolicy(),

            // The test's own decisions only: short jobs first would decide on the repartitioner thread while a sample
            // reads (a newcomer's work, its quantum's deadline), between the move's timestamp and its publication.
            NewcomerQuantum = TimeSpan.Zero,
        });
        var samples = new List<(long, Dictionary<int, int>)>();
        void Sample(params ProgramHandle[] programs)
        {
            samples.Add((Stopwatch.GetTimestamp(), programs.ToDictionary(p => p.Id, p => p.Allocation)));
            Thread.Sleep(20); // the next change comes strictly later
        }

        static Task Work(ProgramHandle p) => Task.WhenAll(Enumerable.Range(0, 50).Select(_ =>
            Task.Factory.StartNew(() => Thread.SpinWait(2000), CancellationToken.None, TaskCreationOptions.None, p.Scheduler)));

        ProgramHandle a = mps.AddProgram("alpha");
        Assert.True(Work(a).Wait(Timeout));
        Sample(a);
        ProgramHandle b = mps.AddProgram("beta");
        Assert.True(Task.WhenAll(Work(a), Work(b)).Wait(Timeout));
        Sample(a, b);
        int w = mps.WorkerCount;
        mps.Policy = new FixedAllocationPolicy(new Dictionary<int, int> { [a.Id] = w > 1 ? 1 : 0, [b.Id] = w > 1 ? w - 1 : 1 });
        Assert.True(Task.WhenAll(Work(a), Work(b)).Wait(Timeout));
        Sample(a, b);
        mps.RemoveProgram(a);
        Sample(b);
        var names = mps.Programs.Concat([a]).ToDictionary(p => p.Id, p => p.Name);
        var timeline = new SchemeTimeline("dynamic partitioned", mps.Timeline, w, names, Stopwatch.GetTimestamp());
        return (timeline, samples, w);
    }

    private static double ValueAt(StackedStepPlot plot, int layer, double t)
    {
        int i = plot.Times.Count - 2;
        while (i > 0 && plot.Times[i] > t)
        {
            i--;
        }

        return plot.Layers[layer].Values[i];
    }

    [Fact]
    public void Plotted_cores_equal_the_schedulers_allocation_at_every_sample()
    {
        var (timeline, samples, workers) = RealRun();
        StackedStepPlot plot = Assert.IsType<StackedStepPlot>(AllocationPlot.Create(timeline));
        Assert.Equal(["alpha (0)", "beta (1)"], plot.Layers.Select(l => l.Name));
        Assert.Contains(plot.ReferenceLines, l => l.Slope == 0 && l.Intercept == workers);
        long origin = timeline.Timeline.OriginTimestamp;
        foreach (var (timestamp, cores) in samples)
        {
            double t = (timestamp - origin) / (double)Stopwatch.Frequency;
            for (int layer = 0; layer < 2; layer++)
            {
                double expected = cores.TryGetValue(layer, out int c) ? c : 0; // ids are 0 and 1; a removed program holds 0
                Assert.Equal(expected, ValueAt(plot, layer, t));
            }

            Assert.True(plot.Layers.Sum(l => ValueAt(plot, plot.Layers.ToList().IndexOf(l), t)) <= workers);
        }

        // The figure model round-trips, so the PNG's numbers can be checked from its .plot.json.
        var back = Assert.IsType<StackedStepPlot>(Figure.FromJson(plot.ToJson()));
        Assert.Equal(plot.Layers[1].Values, back.Layers[1].Values);
    }

    [Fact]
    public void With_dropped_moves_the_plot_ends_on_the_schedulers_final_allocation()
    {
        using var mps = new MultiProgramScheduler(new MultiProgramSchedulerOptions
        {
            RepartitionInterval = System.Threading.Timeout.InfiniteTimeSpan,
            BestEffortPinning = true,
            TimelineCapacity = 1,
        });
        ProgramHandle a = mps.AddProgram("a");
        ProgramHandle b = mps.AddProgram("b");
        ProgramHandle c = mps.AddProgram("c");
        ProgramHandle d = mps.AddProgram("d");
        ProgramHandle[] all = [a, b, c, d];
        var final = all.ToDictionary(p => p.Id, p => p.Allocation);
        var timeline = new SchemeTimeline("s", mps.Timeline, mps.WorkerCount, all.ToDictionary(p => p.Id, p => p.Name), Stopwatch.GetTimestamp(),
            mps.GetSnapshot().WorkerPrograms);
        Assert.True(mps.Timeline.Dropped > 0);

        StackedStepPlot plot = Assert.IsType<StackedStepPlot>(AllocationPlot.Create(timeline));
        Assert.DoesNotContain("dropped", plot.Title);
        for (int layer = 0; layer < all.Length; layer++)
        {
            Assert.Equal(final[layer], plot.Layers[layer].Values[^1]);
        }

        // Without the final assignment the plot says it is partial.
        Assert.Contains("dropped", AllocationPlot.Create(timeline with { FinalWorkerPrograms = null })!.Title);
    }

    [Fact]
    public void Allocation_files_are_the_png_next_to_the_chrome_trace_per_scheme()
    {
        var (timeline, _, _) = RealRun();

        var files = AllocationPlot.Files(timeline, png: true);

        Assert.Equal(["allocation-dynamic-partitioned.trace.json", "allocation-dynamic-partitioned.png", "allocation-dynamic-partitioned.plot.json"], files.Select(f => f.Name));
        using JsonDocument trace = JsonDocument.Parse(files[0].Content);
        Assert.True(trace.RootElement.GetProperty("traceEvents").GetArrayLength() > 0);
        var model = Assert.IsType<StackedStepPlot>(Figure.FromJson(System.Text.Encoding.UTF8.GetString(files[2].Content)));
        Assert.Equal(AllocationPlot.Create(timeline)!.Layers[0].Values, model.Layers[0].Values);

        // --plots none: the trace only.
        Assert.Equal(["allocation-dynamic-partitioned.trace.json"], AllocationPlot.Files(timeline, png: false).Select(f => f.Name));
    }

    [Fact]
    public void Steps_HoldEachValueUntilTheLayersNextChange()
    {
        (double, int, int)[] changes =
        [
            (0, 0, 4),
            (1, 1, 2),
            (1, 0, 2),
            (2.5, 0, 1),
            (2.5, 0, 3), // same time, same layer: the last one listed wins
        ];

        StackedStepPlot plot = AllocationPlot.Steps("alloc", ["a", "b"], changes, 4);

        Assert.Equal([0, 1, 2.5, 4], plot.Times);
        Assert.Equal([4, 2, 3], plot.Layers[0].Values);
        Assert.Equal([0, 2, 2], plot.Layers[1].Values);
        Assert.Equal(["a", "b"], plot.Layers.Select(l => l.Name));
        Assert.Equal("Cores", plot.YAxis.Label);
    }
}
