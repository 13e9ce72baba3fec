namespace DivCon.Samples;

/// <summary>Input sizes of the sample programs.</summary>
public enum ProblemSize
{
    /// <summary>For tests: each run well under a second.</summary>
    Small,

    /// <summary>The CLI default on a 2-core machine: each run roughly 0.5–2 s.</summary>
    Medium,

    /// <summary>The thesis's sizes (§4.4): 2^27 ints, 2^30 points, order 1536, 2^26 ints; for big machines.</summary>
    Thesis,
}
