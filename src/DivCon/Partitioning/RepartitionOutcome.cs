namespace DivCon.Partitioning;

/// <summary>What a <see cref="Repartitioner"/> did with a policy's decision.</summary>
public enum RepartitionOutcome
{
    /// <summary>The policy's shares were valid; rotated, placed and returned.</summary>
    Applied = 0,

    /// <summary>No program: every worker slot is given to none; the policy was not asked.</summary>
    NoPrograms,

    /// <summary>
    /// The policy's decision was rejected and the programs differ from those of the allocation in force (one arrived
    /// or left), so that allocation no longer fits: equal shares were placed instead.
    /// </summary>
    FellBack,

    /// <summary>The policy's decision was rejected; the allocation in force is kept (with the removal override applied).</summary>
    Kept,
}
