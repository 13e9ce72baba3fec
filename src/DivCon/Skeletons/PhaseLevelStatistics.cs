namespace DivCon.Skeletons;

/// <summary>
/// What a <see cref="PhaseProfiler"/> recorded at one recursion level: the number of split, execute and merge calls
/// and their cumulative time, summed over all tasks of that level (one bar group of the thesis's Figure 7.5).
/// </summary>
/// <param name="Level">The recursion level, 1 for the top-level problem.</param>
/// <param name="SplitCount">How many <c>Split</c> calls ran at this level.</param>
/// <param name="SplitTime">Their cumulative time.</param>
/// <param name="ExecuteCount">How many <c>ExecuteMuscle</c> calls ran at this level.</param>
/// <param name="ExecuteTime">Their cumulative time.</param>
/// <param name="MergeCount">How many <c>Merge</c> calls ran at this level.</param>
/// <param name="MergeTime">Their cumulative time.</param>
public readonly record struct PhaseLevelStatistics(
    int Level,
    long SplitCount,
    TimeSpan SplitTime,
    long ExecuteCount,
    TimeSpan ExecuteTime,
    long MergeCount,
    TimeSpan MergeTime)
{
    /// <summary>The call count of <paramref name="phase"/> at this level.</summary>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="phase"/> is not a defined <see cref="DivConPhase"/>.</exception>
    public long Count(DivConPhase phase) => phase switch
    {
        DivConPhase.Split => SplitCount,
        DivConPhase.Execute => ExecuteCount,
        DivConPhase.Merge => MergeCount,
        _ => throw new ArgumentOutOfRangeException(nameof(phase), phase, "Allowed: Split, Execute, Merge."),
    };

    /// <summary>The cumulative time of <paramref name="phase"/> at this level.</summary>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="phase"/> is not a defined <see cref="DivConPhase"/>.</exception>
    public TimeSpan Time(DivConPhase phase) => phase switch
    {
        DivConPhase.Split => SplitTime,
        DivConPhase.Execute => ExecuteTime,
        DivConPhase.Merge => MergeTime,
        _ => throw new ArgumentOutOfRangeException(nameof(phase), phase, "Allowed: Split, Execute, Merge."),
    };
}
