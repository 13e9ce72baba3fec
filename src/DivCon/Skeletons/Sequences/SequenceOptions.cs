namespace DivCon.Skeletons.Sequences;

/// <summary>Options of one <see cref="SequenceSkeleton"/> call. Immutable.</summary>
public sealed record SequenceOptions
{
    /// <summary>The default grain: elements per task (seed 004 §6.1 chose 128).</summary>
    public const int DefaultGrain = 128;

    /// <summary>The window mode (default <see cref="WindowMode.Sliding"/>).</summary>
    public WindowMode Mode { get; init; } = WindowMode.Sliding;

    /// <summary>
    /// The window size m in elements; null (default) chooses it from the last-level cache size
    /// (<see cref="SequenceSkeleton.DefaultWindowSize"/>). Must be at least <see cref="Grain"/>. Ignored when
    /// <see cref="Mode"/> is <see cref="WindowMode.None"/>.
    /// </summary>
    public int? WindowSize { get; init; }

    /// <summary>Elements processed by one task, at least 1 (default <see cref="DefaultGrain"/>).</summary>
    public int Grain { get; init; } = DefaultGrain;

    /// <summary>
    /// Bytes of memory one element touches, for the default window size; null (default) uses the size of the
    /// element type (a reference for reference types).
    /// </summary>
    public int? BytesPerElement { get; init; }
}
