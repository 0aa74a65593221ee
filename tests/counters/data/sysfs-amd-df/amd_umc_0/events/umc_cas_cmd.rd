event=0x0a,rdwrmask=1
