//! Slots for bots to think in: [`BotPace::threads`](super::BotPace) of them, so that
//! thinking bots leave cores to the players' calls. A bot that finds every slot taken waits
//! in line, and the line is not first come, first served: games with a person in them go
//! before games between two bots, and within each class the bot whose clock runs out
//! soonest goes first.

use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::sync::{Arc, Mutex};

use tokio::sync::oneshot;

/// Which bots think first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(super) struct Urgency {
    /// Games between two bots wait for every game with a person.
    pub exhibition: bool,
    /// When the bot's clock (or turn deadline) runs out, ms since the Unix epoch;
    /// `u64::MAX` without a clock.
    pub deadline_ms: u64,
}

/// The thinking slots and the line of bots waiting for one.
#[derive(Debug)]
pub(super) struct Thinking {
    inner: Mutex<Line>,
}

#[derive(Debug)]
struct Line {
    free: usize,
    /// Waiting bots: the smallest urgency first, then the earliest to come.
    waiting: BinaryHeap<Reverse<Waiter>>,
    arrivals: u64,
}

#[derive(Debug)]
struct Waiter {
    urgency: Urgency,
    arrival: u64,
    grant: oneshot::Sender<()>,
}

impl PartialEq for Waiter {
    fn eq(&self, other: &Self) -> bool {
        (self.urgency, self.arrival) == (other.urgency, other.arrival)
    }
}

impl Eq for Waiter {}

impl PartialOrd for Waiter {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Waiter {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        (self.urgency, self.arrival).cmp(&(other.urgency, other.arrival))
    }
}

impl Thinking {
    /// `slots` slots (at least one).
    pub(super) fn new(slots: usize) -> Arc<Thinking> {
        Arc::new(Thinking {
            inner: Mutex::new(Line {
                free: slots.max(1),
                waiting: BinaryHeap::new(),
                arrivals: 0,
            }),
        })
    }

    fn line(&self) -> std::sync::MutexGuard<'_, Line> {
        self.inner.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// A slot to think in, once one is free and no more urgent bot waits.
    pub(super) async fn slot(self: &Arc<Thinking>, urgency: Urgency) -> ThinkingSlot {
        let granted = {
            let mut line = self.line();
            if line.free > 0 && line.waiting.is_empty() {
                line.free -= 1;
                return ThinkingSlot {
                    thinking: Arc::clone(self),
                };
            }
            let (grant, granted) = oneshot::channel();
            line.arrivals += 1;
            let arrival = line.arrivals;
            line.waiting.push(Reverse(Waiter {
                urgency,
                arrival,
                grant,
            }));
            granted
        };
        let mut waiting = Waiting {
            granted,
            thinking: Arc::clone(self),
            done: false,
        };
        // The sender lives in the line until a slot is handed over: it is never dropped
        // unsent while this waits.
        let _ = (&mut waiting.granted).await;
        waiting.done = true;
        ThinkingSlot {
            thinking: Arc::clone(self),
        }
    }

    /// Hands a freed slot to the most urgent waiting bot still waiting, or frees it.
    fn release(&self) {
        let mut line = self.line();
        while let Some(Reverse(waiter)) = line.waiting.pop() {
            if waiter.grant.send(()).is_ok() {
                return;
            }
        }
        line.free += 1;
    }

    /// Bots waiting for a slot now.
    #[cfg(test)]
    fn waiting(&self) -> usize {
        self.line().waiting.len()
    }
}

/// A bot's slot to think in, handed on when dropped.
#[derive(Debug)]
pub(super) struct ThinkingSlot {
    thinking: Arc<Thinking>,
}

impl Drop for ThinkingSlot {
    fn drop(&mut self) {
        self.thinking.release();
    }
}

/// A bot in line. If it stops waiting (its task is dropped) after a slot was handed to it,
/// the slot is handed on.
struct Waiting {
    granted: oneshot::Receiver<()>,
    thinking: Arc<Thinking>,
    done: bool,
}

impl Drop for Waiting {
    fn drop(&mut self) {
        if self.done {
            return;
        }
        self.granted.close();
        if self.granted.try_recv().is_ok() {
            self.thinking.release();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const PERSON: Urgency = Urgency {
        exhibition: false,
        deadline_ms: u64::MAX,
    };
    const EXHIBITION: Urgency = Urgency {
        exhibition: true,
        deadline_ms: 10,
    };

    #[tokio::test]
    async fn games_with_a_person_think_first_then_the_soonest_clock() {
        let thinking = Thinking::new(1);
        let first = thinking.slot(PERSON).await;
        let order = Arc::new(Mutex::new(Vec::new()));
        let mut tasks = Vec::new();
        for (name, urgency) in [
            ("exhibition", EXHIBITION),
            ("untimed person", PERSON),
            (
                "person short of time",
                Urgency {
                    exhibition: false,
                    deadline_ms: 1_000,
                },
            ),
        ] {
            let line = Arc::clone(&thinking);
            let order = Arc::clone(&order);
            tasks.push(tokio::spawn(async move {
                let _slot = line.slot(urgency).await;
                order.lock().expect("order").push(name);
            }));
            while thinking.waiting() < tasks.len() {
                tokio::task::yield_now().await;
            }
        }
        drop(first);
        for task in tasks {
            task.await.expect("task");
        }
        assert_eq!(
            *order.lock().expect("order"),
            ["person short of time", "untimed person", "exhibition"]
        );
    }

    #[tokio::test]
    async fn a_bot_that_stops_waiting_hands_its_slot_on() {
        let thinking = Thinking::new(1);
        let held = thinking.slot(PERSON).await;
        let gone = tokio::spawn({
            let thinking = Arc::clone(&thinking);
            async move { thinking.slot(PERSON).await }
        });
        while thinking.waiting() == 0 {
            tokio::task::yield_now().await;
        }
        gone.abort();
        let _ = gone.await;
        drop(held);
        // The slot came back: a new bot gets it at once.
        let _again = thinking.slot(EXHIBITION).await;
        assert_eq!(thinking.waiting(), 0);
    }
}
