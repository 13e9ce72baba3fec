using DivCon.Metrics.Schemes;

namespace DivCon.Harness.Schemes;

/// <summary>
/// A scheme of the <see cref="SchemeCatalog"/> wired to the schedulers that run it: the scheme as data (name,
/// description, arrangement, policy), and how it builds its schedulers for the programs of one phase.
/// </summary>
public sealed record SchemeDescriptor : SchemeInfo
{
    private readonly Func<SchemeContext, SchedulerArrangement> _factory;

    /// <summary>Wires <paramref name="info"/> to <paramref name="factory"/>, which builds the scheme's schedulers for one phase.</summary>
    public SchemeDescriptor(SchemeInfo info, Func<SchemeContext, SchedulerArrangement> factory)
        : base(info) => _factory = factory ?? throw new ArgumentNullException(nameof(factory));

    /// <summary>Builds the scheme's schedulers for one phase.</summary>
    /// <exception cref="ArgumentException">The scheme needs scalabilities and a program has none.</exception>
    public SchedulerArrangement Create(SchemeContext context)
    {
        ArgumentNullException.ThrowIfNull(context);
        if (RequiresScalability && !context.OnlineScalability && context.Programs.Any(p => p.Scalability is null))
        {
            throw new ArgumentException($"Scheme '{Name}' needs every program's scalability.", nameof(context));
        }

        return _factory(context);
    }
}
