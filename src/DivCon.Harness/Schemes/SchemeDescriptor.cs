using DivCon.Metrics.Schemes;

namespace DivCon.Harness.Schemes;

/// <summary>
/// A scheme of the <see cref="SchemeCatalog"/> wired to the schedulers that run it: how it builds its schedulers for
/// the programs of one phase.
/// </summary>
/// <param name="Info">The scheme as data: name, description, arrangement, policy.</param>
/// <param name="Factory">Builds the scheme's schedulers for one phase.</param>
public sealed record SchemeDescriptor(SchemeInfo Info, Func<SchemeContext, SchedulerArrangement> Factory)
{
    /// <summary>The CLI name.</summary>
    public string Name => Info.Name;

    /// <summary>One sentence for reports.</summary>
    public string Description => Info.Description;

    /// <summary>Whether it needs each program's scalability.</summary>
    public bool RequiresScalability => Info.RequiresScalability;

    /// <summary>Builds the scheme's schedulers for one phase.</summary>
    /// <exception cref="ArgumentException">The scheme needs scalabilities and a program has none.</exception>
    public SchedulerArrangement Create(SchemeContext context)
    {
        ArgumentNullException.ThrowIfNull(context);
        if (RequiresScalability && !context.OnlineScalability && context.Programs.Any(p => p.Scalability is null))
        {
            throw new ArgumentException($"Scheme '{Name}' needs every program's scalability.", nameof(context));
        }

        return Factory(context);
    }

    /// <inheritdoc/>
    public override string ToString() => Name;
}
