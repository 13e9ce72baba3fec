namespace DivCon.Skeletons;

// One DivConContext.ForAsync call: a parallel loop in which the calling thread takes part.
//
// Roles
//   caller  – the thread that called ForAsync: queues the helpers, then claims and runs iterations until none is left.
//   helper  – a task on the run's scheduler doing the same; one that starts after every iteration was claimed returns.
//
// Invariants
//   (F1) Each index is claimed exactly once: by the Interlocked.Increment of _next that returns it. A claimed index is
//        run (or skipped once the loop stopped) and then counted down in _remaining, exactly once.
//   (F2) The loop completes when _remaining reaches 0; the participant whose Interlocked.Decrement takes it there
//        completes _completion, once. Indices are claimed only by participants that are running, so when the caller
//        has found nothing left to claim, what remains is being run on threads that are running: the loop never
//        waits for a helper that has not started (no starvation on one worker, nor under a blocked fork-join worker).
//   (F3) After the first fault, or once the token is canceled, claimed indices are skipped: no body call starts
//        (except one that read _stopped just before it was set: harmless, its effects are the loop's anyway).
//
// Rejected: Parallel.ForAsync on the run's scheduler. Its workers are queued tasks and the caller only waits, so a
// fork-join worker blocking on it with no other worker free would wait forever.
internal sealed class NestedFor
{
    private static readonly Action<object?> s_helper = static state => ((NestedFor)state!).Participate();

    private readonly int _toExclusive;
    private readonly Action<int> _body;
    private readonly CancellationToken _cancellationToken;
    // Continuations run synchronously, on the participant that completes the loop: the rest of the muscle that awaits
    // it continues on that worker, without a hop through the thread pool (which a blocked fork-join worker would
    // otherwise wait for).
    private readonly TaskCompletionSource _completion = new();
    private readonly Lock _lock = new();
    private List<Exception>? _faults; // under _lock
    private int _next;                // next index to claim: any participant, Interlocked.Increment (F1)
    private int _remaining;           // claimed-or-not indices not yet finished: Interlocked.Decrement (F2)
    private volatile bool _stopped;   // written by a faulting participant; read before each body call (F3)
    private volatile bool _canceled;  // an index was skipped because the token was canceled: read by Complete

    public NestedFor(int fromInclusive, int toExclusive, Action<int> body, CancellationToken cancellationToken)
    {
        _next = fromInclusive;
        _toExclusive = toExclusive;
        _remaining = toExclusive - fromInclusive;
        _body = body;
        _cancellationToken = cancellationToken;
    }

    public ValueTask Run(TaskScheduler scheduler, TaskCreationOptions creationOptions)
    {
        int count = _remaining;
        int helpers = Math.Min(count - 1, Math.Min(scheduler.MaximumConcurrencyLevel, Environment.ProcessorCount) - 1);
        for (int i = 0; i < helpers; i++)
        {
            try
            {
                Task.Factory.StartNew(s_helper, this, CancellationToken.None, creationOptions, scheduler);
            }
            catch (Exception e)
            {
                // The scheduler refused (disposed): the loop faults, as a run of the skeleton does when queuing fails;
                // the caller still counts every index down, so the loop completes.
                Record(e);
                break;
            }
        }

        Participate();
        return new ValueTask(_completion.Task);
    }

    private void Participate()
    {
        while (true)
        {
            int index = Interlocked.Increment(ref _next) - 1;
            if (index >= _toExclusive)
            {
                return;
            }

            if (_cancellationToken.IsCancellationRequested)
            {
                _canceled = true;
            }
            else if (!_stopped)
            {
                try
                {
                    _body(index);
                }
                catch (Exception e)
                {
                    Record(e);
                }
            }

            // Full fence: every write of the body above happens before the decrement, so the participant that takes
            // _remaining to 0 and completes the loop publishes all of them to whoever awaits _completion (F2).
            if (Interlocked.Decrement(ref _remaining) == 0)
            {
                Complete();
            }
        }
    }

    private void Record(Exception e)
    {
        lock (_lock)
        {
            (_faults ??= []).Add(e);
        }

        _stopped = true;
    }

    private void Complete()
    {
        List<Exception>? faults;
        lock (_lock)
        {
            faults = _faults;
        }

        if (faults is not null)
        {
            _completion.TrySetException(faults);
        }
        else if (_canceled)
        {
            // Iterations were skipped: the loop did not finish its work. (The write of _canceled is ordered before the
            // completing participant's decrement, as the body's writes are.)
            _completion.TrySetCanceled(_cancellationToken);
        }
        else
        {
            _completion.TrySetResult();
        }
    }
}
