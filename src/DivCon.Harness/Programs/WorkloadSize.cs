namespace DivCon.Harness.Programs;

/// <summary>The input sizes a program is made for (the sample programs' sizes; the synthetic programs scale with them).</summary>
public enum WorkloadSize
{
    /// <summary>For tests: each run well under a second.</summary>
    Small,

    /// <summary>The CLI default on a 2-core machine: each run roughly 0.5–2 s.</summary>
    Medium,

    /// <summary>The thesis's sizes (§4.4), for big machines.</summary>
    Thesis,
}
