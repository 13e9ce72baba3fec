namespace DivCon.Simulation.Engine;

/// <summary>
/// A <see cref="ProgramModel"/> fixed for one simulated machine: the split depth of its automatic granularity and the
/// per-level costs at that depth (see the model's remarks for the rules). Immutable; shared by every run.
/// </summary>
internal sealed class TaskTreeShape
{
    // Deepest level a node may reach; guards against a pathological imbalance making a path of tiny fractions.
    private const int MaxLevel = 96;

    private readonly double[] _split;
    private readonly double[] _merge;

    public TaskTreeShape(ProgramModel model, int cores)
    {
        Model = model;
        Depth = model.SplitDepth(cores);
        LeafFraction = Math.Pow(model.BranchingFactor, -Depth) * (1 + 1e-9);

        // The deepest level with a split in the profile.
        int profiled = model.Levels.Select((l, i) => l.SplitCount > 0 || l.SplitNs > 0 ? i + 1 : 0).DefaultIfEmpty().Max();

        _split = new double[MaxLevel + 1];
        _merge = new double[MaxLevel + 1];
        for (int level = 1; level <= MaxLevel; level++)
        {
            if (level <= profiled)
            {
                // A level where only some nodes split (an imbalanced tree's last levels) is scaled up to a whole
                // level: its cost is shared out by work fraction, and the nodes that split cover only part of it.
                LevelProfile l = model.Levels[level - 1];
                double nodes = Math.Pow(model.BranchingFactor, level - 1);
                _split[level] = l.SplitNs * (l.SplitCount > 0 && l.SplitCount < nodes ? nodes / l.SplitCount : 1);
                _merge[level] = l.MergeNs * (l.MergeCount > 0 && l.MergeCount < nodes ? nodes / l.MergeCount : 1);
            }
            else if (profiled > 0)
            {
                double g = Math.Pow(model.LevelGrowth, level - profiled);
                _split[level] = _split[profiled] * g;
                _merge[level] = _merge[profiled] * g;
            }
        }

        // Work conservation across depths: split/merge levels the profile had but this tree does not are done by
        // the leaves; levels this tree adds are taken off the leaves (never below a tenth of the profile's execute time).
        double execute = model.ExecuteNs;
        for (int level = Depth + 1; level <= profiled; level++)
        {
            execute += _split[level] + _merge[level];
        }

        for (int level = profiled + 1; level <= Depth; level++)
        {
            execute -= _split[level] + _merge[level];
        }

        ExecuteNs = Math.Max(execute, model.ExecuteNs / 10);
    }

    public ProgramModel Model { get; }

    /// <summary>Split levels of a balanced tree on this machine: b^Depth leaves.</summary>
    public int Depth { get; }

    /// <summary>A node whose work fraction is at most this is a leaf.</summary>
    public double LeafFraction { get; }

    /// <summary>The leaves' execute time summed over one balanced run, ns.</summary>
    public double ExecuteNs { get; }

    public bool IsLeaf(int level, double fraction) => fraction <= LeafFraction || level >= MaxLevel;

    public long SplitCost(int level, double fraction) => Cost(_split[Math.Min(level, MaxLevel)] * fraction);

    public long MergeCost(int level, double fraction) => Cost(_merge[Math.Min(level, MaxLevel)] * fraction);

    public long ExecuteCost(double fraction) => Cost(ExecuteNs * fraction);

    /// <summary>
    /// The children's work fractions of a node with fraction <paramref name="fraction"/>, written to
    /// <paramref name="children"/>: equal shares, or normalised random weights drawn from <paramref name="random"/>.
    /// </summary>
    public void SplitFractions(double fraction, SimRandom random, Span<double> children)
    {
        if (Model.Imbalance is not { } imb)
        {
            children.Fill(fraction / children.Length);
            return;
        }

        double sum = 0;
        for (int k = 0; k < children.Length; k++)
        {
            children[k] = imb.MinFraction + ((imb.MaxFraction - imb.MinFraction) * random.NextDouble());
            sum += children[k];
        }

        for (int k = 0; k < children.Length; k++)
        {
            children[k] = fraction * children[k] / sum;
        }
    }

    private static long Cost(double ns) => (long)Math.Round(ns, MidpointRounding.AwayFromZero);
}
