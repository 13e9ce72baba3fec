namespace DivCon.Skeletons.Sequences;

/// <summary>How far ahead of the sequential order a <see cref="SequenceSkeleton"/> may run (seed 004 §2.3).</summary>
public enum WindowMode
{
    /// <summary>Every element may be processed at any time (seed 004's <i>no-window</i>).</summary>
    None,

    /// <summary>
    /// The sequence is cut into consecutive windows of m elements; window k + 1 starts only when every element of
    /// window k is done (one barrier per window: seed 004's <i>static-window</i>).
    /// </summary>
    Static,

    /// <summary>
    /// The window [f, f + m) slides: f is the first element not yet processed, and element j is enabled once every
    /// element before j − m + 1 is done, so element i + m never starts before element i has finished (seed 004's
    /// <i>sliding-window</i>).
    /// </summary>
    Sliding,
}
