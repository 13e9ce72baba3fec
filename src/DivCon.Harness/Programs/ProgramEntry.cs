using DivCon.Samples;

namespace DivCon.Harness.Programs;

/// <summary>
/// A program the CLI can name: how to make an instance for a size and seed, or, for a program this build does not
/// contain, why not (listed, never selectable).
/// </summary>
public sealed class ProgramEntry
{
    private readonly Func<ProblemSize, int, ISampleProgram>? _factory;

    private ProgramEntry(string name, string description, Func<ProblemSize, int, ISampleProgram>? factory, string? unavailableReason)
    {
        ArgumentException.ThrowIfNullOrWhiteSpace(name);
        Name = name;
        Description = description;
        _factory = factory;
        UnavailableReason = unavailableReason;
    }

    /// <summary>The catalogue name, lowercase.</summary>
    public string Name { get; }

    /// <summary>One line for help text and reports.</summary>
    public string Description { get; }

    /// <summary>Whether this build can make it.</summary>
    public bool IsAvailable => _factory is not null;

    /// <summary>Why this build cannot make it; null when it can.</summary>
    public string? UnavailableReason { get; }

    /// <summary>A program this build can make.</summary>
    public static ProgramEntry Available(string name, string description, Func<ProblemSize, int, ISampleProgram> factory)
    {
        ArgumentNullException.ThrowIfNull(factory);
        return new ProgramEntry(name, description, factory, null);
    }

    /// <summary>A program listed for completeness that this build cannot make.</summary>
    public static ProgramEntry Unavailable(string name, string description, string reason) => new(name, description, null, reason);

    /// <summary>Makes an instance (input data made now, reused by every run).</summary>
    /// <exception cref="InvalidOperationException">The program is not available in this build.</exception>
    public ISampleProgram Create(ProblemSize size, int seed) =>
        _factory is null
            ? throw new InvalidOperationException($"Program '{Name}' is not available in this build: {UnavailableReason}")
            : _factory(size, seed);
}
