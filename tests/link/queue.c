#include "ltp.h"

#define QCAP 64
static int ring[QCAP];
static unsigned head, tail;
int ltp_queue_high;

int ltp_q_push(int x)
{
	if (tail - head == QCAP)
		return -1;
	ring[tail++ % QCAP] = x;
	if ((int)(tail - head) > ltp_queue_high)
		ltp_queue_high = (int)(tail - head);
	return 0;
}

int ltp_q_pop(int *x)
{
	if (head == tail)
		return -1;
	*x = ring[head++ % QCAP];
	return 0;
}
