namespace DivCon.Harness.Schemes;

/// <summary>
/// A multiprogramming scheme as data: its name for the CLI and reports, what it is, how it builds its schedulers for a
/// set of programs, and what statistics those schedulers expose. A descriptor without a factory is a scheme this build
/// cannot run (its scheduler types are not in it): it is listed, with the reason, but never selectable.
/// </summary>
public sealed class SchemeDescriptor
{
    private readonly Func<SchemeContext, ISchedulerArrangement>? _factory;

    /// <summary>A runnable scheme.</summary>
    public SchemeDescriptor(string name, string description, string thesisSection, SchemeStatistics exposes, bool requiresScalability,
        Func<SchemeContext, ISchedulerArrangement> factory)
        : this(name, description, thesisSection, exposes, requiresScalability, factory, null)
    {
        ArgumentNullException.ThrowIfNull(factory);
    }

    private SchemeDescriptor(string name, string description, string thesisSection, SchemeStatistics exposes, bool requiresScalability,
        Func<SchemeContext, ISchedulerArrangement>? factory, string? unavailableReason)
    {
        ArgumentException.ThrowIfNullOrWhiteSpace(name);
        ArgumentException.ThrowIfNullOrWhiteSpace(description);
        Name = name;
        Description = description;
        ThesisSection = thesisSection;
        Exposes = exposes;
        RequiresScalability = requiresScalability;
        _factory = factory;
        UnavailableReason = unavailableReason;
    }

    /// <summary>The CLI name, lowercase with dashes (for example <c>oversubscribed-free</c>).</summary>
    public string Name { get; }

    /// <summary>One sentence: which schedulers, how many workers, pinned or not, shared or separate.</summary>
    public string Description { get; }

    /// <summary>Where the thesis describes it (for example <c>§5.2.1</c>).</summary>
    public string ThesisSection { get; }

    /// <summary>What the scheme's schedulers report.</summary>
    public SchemeStatistics Exposes { get; }

    /// <summary>Whether it needs each program's scalability (partitioning by scalability shares).</summary>
    public bool RequiresScalability { get; }

    /// <summary>Whether this build can run it.</summary>
    public bool IsAvailable => _factory is not null;

    /// <summary>Why this build cannot run it; null when it can.</summary>
    public string? UnavailableReason { get; }

    /// <summary>A scheme listed for completeness that this build cannot run, with the reason.</summary>
    public static SchemeDescriptor Unavailable(string name, string description, string thesisSection, SchemeStatistics exposes,
        bool requiresScalability, string reason)
    {
        ArgumentException.ThrowIfNullOrWhiteSpace(reason);
        return new SchemeDescriptor(name, description, thesisSection, exposes, requiresScalability, null, reason);
    }

    /// <summary>Builds the scheme's schedulers for one phase.</summary>
    /// <exception cref="InvalidOperationException">The scheme is not available in this build.</exception>
    public ISchedulerArrangement Create(SchemeContext context)
    {
        ArgumentNullException.ThrowIfNull(context);
        if (_factory is null)
        {
            throw new InvalidOperationException($"Scheme '{Name}' is not available in this build: {UnavailableReason}");
        }

        if (RequiresScalability && context.Programs.Any(p => p.Scalability is null))
        {
            throw new ArgumentException($"Scheme '{Name}' needs every program's scalability.", nameof(context));
        }

        return _factory(context);
    }

    /// <inheritdoc/>
    public override string ToString() => Name;
}
