namespace DivCon.Partitioning;

/// <summary>One program's part of a policy's decision: how many cores, and why each one.</summary>
public sealed class ProgramShare
{
    private readonly AllocationReason[] _coreReasons;

    /// <summary>A share of <paramref name="cores"/> cores, every one for <paramref name="reason"/>.</summary>
    /// <param name="programId">The program's id (<see cref="ProgramLoad.ProgramId"/>).</param>
    /// <param name="cores">Cores; not negative.</param>
    /// <param name="reason">Why it holds them.</param>
    public ProgramShare(int programId, int cores, AllocationReason reason)
    {
        ArgumentOutOfRangeException.ThrowIfNegative(cores);
        ProgramId = programId;
        _coreReasons = new AllocationReason[cores];
        Array.Fill(_coreReasons, reason);
    }

    /// <summary>A share of one core per reason in <paramref name="coreReasons"/>.</summary>
    /// <param name="programId">The program's id (<see cref="ProgramLoad.ProgramId"/>).</param>
    /// <param name="coreReasons">
    /// Per core, why, in the order the program should keep them when placement has to choose: the first go to the
    /// worker slots it already holds.
    /// </param>
    public ProgramShare(int programId, IReadOnlyList<AllocationReason> coreReasons)
    {
        ArgumentNullException.ThrowIfNull(coreReasons);
        ProgramId = programId;
        _coreReasons = [.. coreReasons];
    }

    /// <summary>A share that takes ownership of <paramref name="coreReasons"/> (no copy): the policies' path.</summary>
    internal ProgramShare(int programId, AllocationReason[] coreReasons, bool owned)
    {
        System.Diagnostics.Debug.Assert(owned, "the caller never writes the array again");
        ProgramId = programId;
        _coreReasons = coreReasons;
    }

    /// <summary>The program's id.</summary>
    public int ProgramId { get; }

    /// <summary>Cores given to it.</summary>
    public int Cores => _coreReasons.Length;

    /// <summary>Per core, why it was given (length <see cref="Cores"/>).</summary>
    public IReadOnlyList<AllocationReason> CoreReasons => _coreReasons;

    /// <inheritdoc/>
    public override string ToString() => $"{ProgramId}: {Cores}";
}
