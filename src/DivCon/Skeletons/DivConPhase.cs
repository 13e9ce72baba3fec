namespace DivCon.Skeletons;

/// <summary>The three muscles of a D&amp;C recursion whose calls a <see cref="PhaseProfiler"/> counts and times.</summary>
public enum DivConPhase
{
    /// <summary>A <c>Split</c> call: the problem is divided into subproblems.</summary>
    Split,

    /// <summary>An <c>ExecuteMuscle</c> call: a leaf subproblem is solved sequentially.</summary>
    Execute,

    /// <summary>A <c>Merge</c> call: the subresults of one split are combined.</summary>
    Merge,
}
