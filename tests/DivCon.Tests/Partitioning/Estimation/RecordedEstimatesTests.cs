namespace DivCon.Tests.Partitioning.Estimation;

/// <summary>
/// The estimator's per-tick path gives the estimates it gave before it was made cheaper (issue 20: the cost per tick;
/// docs/online-scalability.md, "Cost"). The sums were recorded with the estimator of commit 8609e58, which refitted
/// every core count with a division per count at every tick; the present one sums cached per-count products, so the
/// sums may differ by rounding only: within 1e-12 relative. Counts (estimates, probes, choice changes, ticks) are equal.
/// The 2-core scenario's sums were recorded again when the inflation fit's x became the program's concurrent workers,
/// at least one, instead of its served cores less one (a worker serving one core for part of a tick is one worker;
/// <see cref="InflationOnRecordedTicksTests"/>): that changed only them (the scalabilities' sum by 0.03 %), from the
/// sums this test recorded before, which the change reproduced with the old x.
/// </summary>
public sealed class RecordedEstimatesTests
{
    private static readonly double[][] Recorded =
    [
        [9521, 73121.58007132269, 37281.94405124814, 88740, 1613.838444646986, 22.636809914539377, 8798, 5878.87141544179, 79, 2901.308155790349, 3429863.000013333, 33479, 409, 12256, 16431.798684552756, 63874.321829098, 73105.09160903437, 2178, 8720, 376, 3138.05559406969],
        [4247, 10747.860818800187, 7500, 7489, 539.951233279963, 94.4947680287104, 4247, 858.2204163439126, 3253, 2531.1371988646997, 1849790.0921822682, 13973, 136, 272, 10747.860818800187, 7500, 10726.462488801546, 59, 3100, 136, 13.795870282281701],
        [8961, 70593.79941127537, 27248.764105752347, 35994, 649.4006338645656, 18.01018646432473, 1885, 4939.880261548086, 39, 1390.1519936994184, 105104.69453878919, 21180, 888, 7152, 16730.911117579126, 47986.2695573106, 70587.71682143371, 8118, 8997, 888, 254.4510444195372],
    ];

    public static TheoryData<int> ScenarioIndices => [0, 1, 2];

    [Theory]
    [MemberData(nameof(ScenarioIndices))]
    public void SameEstimatesAsRecorded(int scenario)
    {
        double[] sums = EstimateFingerprint.Run(scenario);
        Assert.Equal(Recorded[scenario].Length, sums.Length);
        for (int i = 0; i < sums.Length; i++)
        {
            double expected = Recorded[scenario][i];
            Assert.True(
                Math.Abs(sums[i] - expected) <= 1e-12 * Math.Abs(expected),
                $"{EstimateFingerprint.Scenarios[scenario]}, {EstimateFingerprint.Fields[i]}: {sums[i]:R}, recorded {expected:R}");
        }
    }
}
