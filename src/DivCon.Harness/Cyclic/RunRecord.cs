namespace DivCon.Harness.Cyclic;

/// <summary>One run of one program in a multiprogram phase.</summary>
/// <param name="Program">Index of the program in the phase.</param>
/// <param name="StartSeconds">When it started, seconds after the phase began.</param>
/// <param name="EndSeconds">When it completed or was stopped, seconds after the phase began.</param>
/// <param name="Recorded">
/// True when the run completed successfully at or before the time limit and counts towards C^MP; false for a run
/// still going at the limit (discarded, thesis §5.4.1).
/// </param>
public sealed record RunRecord(int Program, double StartSeconds, double EndSeconds, bool Recorded)
{
    /// <summary>EndSeconds − StartSeconds.</summary>
    public double DurationSeconds => EndSeconds - StartSeconds;
}
