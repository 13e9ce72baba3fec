using System.Collections;

namespace DivCon.Partitioning;

/// <summary>
/// A policy's decision before placement: per program id, its cores and why (<see cref="ProgramShare"/>), in the
/// input's program order. Immutable.
/// </summary>
public sealed class Shares : IReadOnlyList<ProgramShare>
{
    private readonly ProgramShare[] _shares;
    private readonly Dictionary<int, int> _indexOf;

    // The input these shares were last found to keep the contract for (Problems empty), or null; lets the repartitioner
    // skip a second check of a built-in policy's shares. Both objects are immutable, so the finding stays true. Written
    // by Problems on the deciding thread; a racing reader at worst checks again.
    private PartitioningInput? _keptFor;

    /// <summary>Creates the decision from one share per program.</summary>
    /// <exception cref="ArgumentException">Two shares name the same program.</exception>
    public Shares(IEnumerable<ProgramShare> shares)
        : this(shares is null ? throw new ArgumentNullException(nameof(shares)) : [.. shares], owned: true)
    {
    }

    // Takes ownership of the array (no copy; the caller never writes it again).
    private Shares(ProgramShare[] shares, bool owned)
    {
        System.Diagnostics.Debug.Assert(owned, "the caller never writes the array again");
        _shares = shares;
        _indexOf = new Dictionary<int, int>(_shares.Length);
        for (int i = 0; i < _shares.Length; i++)
        {
            ArgumentNullException.ThrowIfNull(_shares[i], nameof(shares));
            if (!_indexOf.TryAdd(_shares[i].ProgramId, i))
            {
                throw new ArgumentException($"Program id {_shares[i].ProgramId} has two shares.", nameof(shares));
            }
        }
    }

    /// <inheritdoc/>
    public int Count => _shares.Length;

    /// <inheritdoc/>
    public ProgramShare this[int index] => _shares[index];

    /// <summary>The cores given to <paramref name="programId"/> (0 when it has no share).</summary>
    public int CoresOf(int programId) => _indexOf.TryGetValue(programId, out int i) ? _shares[i].Cores : 0;

    /// <summary>The share of <paramref name="programId"/>, or null.</summary>
    public ProgramShare? Find(int programId) => _indexOf.TryGetValue(programId, out int i) ? _shares[i] : null;

    /// <summary>
    /// Per program index of <paramref name="input"/>, its counts and reasons as one decision: the usual way for a
    /// policy that computes by index to return its result.
    /// </summary>
    /// <param name="input">The input the counts are for.</param>
    /// <param name="counts">Per program index, its cores.</param>
    /// <param name="reasons">Per program index, one reason per core; null: <paramref name="reason"/> for every core.</param>
    /// <param name="reason">The reason of every core when <paramref name="reasons"/> is null.</param>
    public static Shares FromCounts(
        PartitioningInput input, IReadOnlyList<int> counts, IReadOnlyList<IReadOnlyList<AllocationReason>>? reasons = null, AllocationReason reason = AllocationReason.None)
    {
        ArgumentNullException.ThrowIfNull(input);
        ArgumentNullException.ThrowIfNull(counts);
        if (counts.Count != input.Programs.Count)
        {
            throw new ArgumentException($"There are {input.Programs.Count} programs but {counts.Count} counts.", nameof(counts));
        }

        var shares = new ProgramShare[counts.Count];
        for (int i = 0; i < shares.Length; i++)
        {
            int id = input.Programs[i].ProgramId;
            if (reasons is null)
            {
                shares[i] = new ProgramShare(id, counts[i], reason);
            }
            else if (reasons[i].Count != counts[i])
            {
                throw new ArgumentException($"Program {i} needs exactly one reason per core ({counts[i]}), not {reasons[i].Count}.", nameof(reasons));
            }
            else
            {
                shares[i] = new ProgramShare(id, reasons[i]);
            }
        }

        return new Shares(shares, owned: true);
    }

    /// <summary>
    /// <see cref="FromCounts"/> for a policy's own arrays, taken over without a copy (required: the caller never writes
    /// them again): per program index its reasons, one per core.
    /// </summary>
    internal static Shares FromOwnedReasons(PartitioningInput input, AllocationReason[][] reasons)
    {
        var shares = new ProgramShare[reasons.Length];
        for (int i = 0; i < shares.Length; i++)
        {
            shares[i] = new ProgramShare(input.Programs[i].ProgramId, reasons[i], owned: true);
        }

        return new Shares(shares, owned: true);
    }

    /// <summary>
    /// These shares at new per-index <paramref name="counts"/> for <paramref name="input"/>: each program keeps its own
    /// reasons for its first cores (as many as it still has), and cores beyond its share say <paramref name="added"/>.
    /// The repartitioner's steps after the policy (probes, short jobs first) change counts this way.
    /// </summary>
    internal Shares WithCounts(PartitioningInput input, IReadOnlyList<int> counts, AllocationReason added)
    {
        var reasons = new AllocationReason[counts.Count][];
        for (int i = 0; i < reasons.Length; i++)
        {
            IReadOnlyList<AllocationReason> own = Find(input.Programs[i].ProgramId)!.CoreReasons;
            var r = new AllocationReason[counts[i]];
            for (int c = 0; c < r.Length; c++)
            {
                r[c] = c < own.Count ? own[c] : added;
            }

            reasons[i] = r;
        }

        return FromOwnedReasons(input, reasons);
    }

    /// <summary>
    /// The contract every decision keeps, as one sentence per broken rule (empty when kept): exactly one share per
    /// program of <paramref name="input"/> and none for another id, and the shares sum to the cores whenever there is
    /// a program (so that placement assigns every worker slot).
    /// </summary>
    public IReadOnlyList<string> Problems(PartitioningInput input)
    {
        ArgumentNullException.ThrowIfNull(input);
        List<string>? problems = null;
        long sum = 0;
        int matched = 0;
        if (ReferenceEquals(input, _keptFor))
        {
            return [];
        }

        for (int k = 0; k < input.Programs.Count; k++)
        {
            ProgramLoad p = input.Programs[k];

            // Shares built by index (FromCounts) are in input order: no lookup by id.
            int i = k < _shares.Length && _shares[k].ProgramId == p.ProgramId ? k : _indexOf.GetValueOrDefault(p.ProgramId, -1);
            if (i >= 0)
            {
                matched++;
                sum += _shares[i].Cores;
            }
            else
            {
                (problems ??= []).Add($"Program id {p.ProgramId} has no share.");
            }
        }

        if (matched < _shares.Length)
        {
            // Some share names an id that is not in the input (found only on this rare path).
            var ids = new HashSet<int>(input.Programs.Select(p => p.ProgramId));
            foreach (ProgramShare share in _shares.Where(s => !ids.Contains(s.ProgramId)))
            {
                (problems ??= []).Add($"There is a share for program id {share.ProgramId}, which is not in the input.");
                sum += share.Cores;
            }
        }

        long expected = input.Programs.Count == 0 ? 0 : input.Cores;
        if (sum != expected)
        {
            (problems ??= []).Add($"The shares sum to {sum} cores but there are {expected} to divide.");
        }

        if (problems is null)
        {
            _keptFor = input;
            return [];
        }

        return problems;
    }

    /// <summary>The cores per program index of <paramref name="input"/> (0 for a program without a share).</summary>
    public int[] CountsFor(PartitioningInput input)
    {
        ArgumentNullException.ThrowIfNull(input);
        var counts = new int[input.Programs.Count];
        for (int i = 0; i < counts.Length; i++)
        {
            counts[i] = CoresOf(input.Programs[i].ProgramId);
        }

        return counts;
    }

    /// <inheritdoc/>
    public IEnumerator<ProgramShare> GetEnumerator() => ((IEnumerable<ProgramShare>)_shares).GetEnumerator();

    IEnumerator IEnumerable.GetEnumerator() => _shares.GetEnumerator();
}
