namespace DivCon.Samples;

/// <summary>
/// A sample whose level-1 split and merge can run their own work in parallel (<see cref="NestedParallelism"/>):
/// Strassen, quicksort and mergesort. Lets a caller compare both ways on the same program (<c>divcon factored
/// --nested on|off</c>, the nested-parallelism benchmark).
/// </summary>
public interface INestedParallelSample : IDivConSample
{
    /// <summary>
    /// Whether the level-1 split and merge share their work among idle workers where <see cref="NestedParallelism.Pays"/>;
    /// false runs them on one worker, as the thesis's programs do. Set it between runs, not during one.
    /// </summary>
    bool ParallelSplitAndMerge { get; set; }
}
