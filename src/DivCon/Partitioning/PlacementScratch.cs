namespace DivCon.Partitioning;

/// <summary>
/// <see cref="Placement"/>'s working arrays, kept between decisions by their owner (a <see cref="Repartitioner"/>) so
/// that a decision allocates only what it returns. Sized exactly to the cores and programs of the last decision;
/// resized when they change (a program arrived or left).
/// </summary>
/// <remarks>
/// Required: one decision at a time per instance. The repartitioner that owns it is called under the
/// MultiProgramScheduler's lock (Mover) or by the simulator's single thread; <see cref="Placement.Place"/> (public, any
/// thread) uses a fresh instance. Nothing here survives into a result: <see cref="Reset"/> clears what a decision
/// reads before writing.
/// </remarks>
internal sealed class PlacementScratch
{
    private IReadOnlyList<IReadOnlyList<int>>? _groupsOfGroupOf;
    private int[] _previousToInput = [];

    public int[] Need { get; private set; } = [];

    public ProgramShare[] ShareOf { get; private set; } = [];

    public int[] Owners { get; private set; } = [];

    public int[] Next { get; private set; } = [];

    public int[] Held { get; private set; } = [];

    public int[] Free { get; private set; } = [];

    public int[] Lowest { get; private set; } = [];

    public int[] Programs { get; private set; } = [];

    public long[] Keys { get; private set; } = [];

    /// <summary>Per slot, its cache group's index (all 0 without groups).</summary>
    public int[] GroupOf { get; private set; } = [];

    /// <summary>Sizes the arrays for <paramref name="cores"/> slots and <paramref name="programs"/> programs and clears them.</summary>
    public void Reset(int cores, int programs, IReadOnlyList<IReadOnlyList<int>>? groups)
    {
        if (Owners.Length != cores)
        {
            Owners = new int[cores];
            Free = new int[cores];
            GroupOf = new int[cores];
            _groupsOfGroupOf = null;
        }

        if (Need.Length != programs)
        {
            Need = new int[programs];
            ShareOf = new ProgramShare[programs];
            Next = new int[programs];
            Held = new int[programs];
            Lowest = new int[programs];
            Programs = new int[programs];
            Keys = new long[programs];
        }

        Array.Fill(Owners, -1);
        Array.Clear(Next);
        Array.Clear(Held);
        if (groups is not null && !ReferenceEquals(groups, _groupsOfGroupOf))
        {
            // The repartitioner's groups never change: computed once per groups object.
            for (int g = 0; g < groups.Count; g++)
            {
                foreach (int slot in groups[g])
                {
                    GroupOf[slot] = g;
                }
            }

            _groupsOfGroupOf = groups;
        }
    }

    /// <summary>An array of <paramref name="count"/> entries, every one -1.</summary>
    public int[] PreviousToInput(int count)
    {
        if (_previousToInput.Length != count)
        {
            _previousToInput = new int[count];
        }

        Array.Fill(_previousToInput, -1);
        return _previousToInput;
    }
}
