namespace DivCon.Scheduling;

/// <summary>Which victims a thief tries, and in which order (the restricted stealing of seed 002, issue 10).</summary>
public enum StealingScope
{
    /// <summary>Every other worker, from a random start (the default; unchanged behaviour).</summary>
    All = 0,

    /// <summary>
    /// First the workers of the thief's own cache group (sharing its last-level cache), from a random start; only
    /// when that sweep finds nothing, the workers of the other groups.
    /// </summary>
    CacheGroupFirst = 1,
}
