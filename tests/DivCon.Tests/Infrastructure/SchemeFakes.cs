using DivCon.Harness.Schemes;

namespace DivCon.Tests.Infrastructure;

/// <summary>Schemes for tests: catalogue schemes over fake schedulers, and schemes with a factory of the test's own.</summary>
internal static class SchemeFakes
{
    /// <summary>The catalogue scheme <paramref name="name"/> over <paramref name="workStealing"/> schedulers or <paramref name="pool"/> pools.</summary>
    public static SchemeDescriptor Wire(string name, Func<SchedulerRequest, SchedulerArrangement>? workStealing = null, Func<SchemeContext, IMultiprogramPool>? pool = null) =>
        BuiltInSchemes.Wire(SchemeCatalog.Find(name)!, workStealing ?? (_ => throw new InvalidOperationException("no scheduler factory")),
            pool ?? (_ => throw new InvalidOperationException("no pool factory")));

    /// <summary>A partitioned scheme named <paramref name="name"/> over <paramref name="pool"/>.</summary>
    public static SchemeDescriptor Partitioned(string name, Func<SchemeContext, IMultiprogramPool> pool) =>
        new(new SchemeInfo(name, $"fake {name}", SchemeArrangement.Partitioned, Simulated: false), c => BuiltInSchemes.Partitioned(c, pool));

    /// <summary>A scheme named <paramref name="name"/> whose arrangement <paramref name="factory"/> builds.</summary>
    public static SchemeDescriptor Custom(string name, Func<SchemeContext, SchedulerArrangement> factory, bool requiresScalability = false) =>
        new(new SchemeInfo(name, $"fake {name}", requiresScalability ? SchemeArrangement.Partitioned : SchemeArrangement.Shared, Simulated: false), factory);
}
