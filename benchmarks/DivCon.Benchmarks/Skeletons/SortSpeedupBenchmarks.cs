using BenchmarkDotNet.Attributes;
using DivCon.Samples;
using DivCon.Skeletons;

namespace DivCon.Benchmarks.Skeletons;

/// <summary>
/// Quicksort and mergesort on the skeleton against their sequential baseline (copy + Array.Sort, the baseline: the
/// Ratio column is 1 / speedup) and against a plain Parallel.Invoke recursive quicksort on the default scheduler
/// (§7.2). Skeleton runs use <see cref="SchedulerBenchmark.Scheduler"/> (2 workers by default) and 4 muscles per core
/// for 2 cores; the Parallel.Invoke sort uses the same leaf size.
/// </summary>
public class SortSpeedupBenchmarks : SchedulerBenchmark
{
    private IDivConSample _quickSort = null!;
    private IDivConSample _mergeSort = null!;
    private int[] _source = null!;
    private int[] _target = null!;
    private int _threshold;

    [Params(ProblemSize.Medium, Priority = SchedulerBenchmark.SizePriority)]
    public ProblemSize Size { get; set; } = ProblemSize.Medium;

    /// <inheritdoc/>
    protected override void SetUpPrograms()
    {
        var settings = new SampleSettings { Cores = 2 };
        _quickSort = SampleCatalog.Create(QuickSort.ProgramName, Size, settings: settings);
        _mergeSort = SampleCatalog.Create(MergeSort.ProgramName, Size, settings: settings);
        _quickSort.Initialize();
        _mergeSort.Initialize();
        _source = ((QuickSort)_quickSort).SourceElements;
        _target = new int[_source.Length];
        _threshold = (int)_quickSort.Granularity;
    }

    /// <inheritdoc/>
    protected override void CheckPrograms()
    {
        _quickSort.Verify();
        _mergeSort.Verify();
        int[] expected = (int[])_source.Clone();
        Array.Sort(expected);
        if (!expected.AsSpan().SequenceEqual(_target))
        {
            throw new InvalidOperationException("The Parallel.Invoke quicksort did not sort.");
        }
    }

    [Benchmark(Baseline = true)]
    public int SequentialArraySort()
    {
        Array.Copy(_source, _target, _source.Length);
        Array.Sort(_target);
        return _target[^1];
    }

    [Benchmark]
    public int SkeletonQuickSort()
    {
        _quickSort.RunParallelAsync(TaskScheduler).GetAwaiter().GetResult();
        return ((SortBase<int>)_quickSort).SortedElements[^1];
    }

    [Benchmark]
    public int SkeletonMergeSort()
    {
        _mergeSort.RunParallelAsync(TaskScheduler).GetAwaiter().GetResult();
        return ((SortBase<int>)_mergeSort).SortedElements[^1];
    }

    [Benchmark]
    public int ParallelInvokeQuickSortOnDefault()
    {
        ParallelInvokeQuickSort.Sort(_source, _target, _threshold);
        return _target[^1];
    }
}
